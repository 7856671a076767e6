import { chargeOutput, OUT } from './helpers.js';

type Part = string | string[];

/**
 * A checked template made only of text and plain paths (`user {{params.id}}`, the usual case) as a
 * direct renderer, else undefined. Each top-level Handlebars call rebuilds its whole helper set
 * (runtime.js `_setup`), which cost more than the rest of a templated request; this gives the same
 * text and charges the same budget: one step per text run and per path, and the characters out.
 */
export function directRender<Input extends object>(program: hbs.AST.Program): ((input: Input) => string) | undefined {
  const parts: Part[] = [];
  for (const node of program.body) {
    if (node.type === 'CommentStatement') continue;
    const param = outParam(node);
    if (param?.type === 'StringLiteral') parts.push((param as hbs.AST.StringLiteral).value);
    else if (param?.type === 'PathExpression' && isPlainPath(param as hbs.AST.PathExpression)) {
      parts.push((param as hbs.AST.PathExpression).parts);
    } else return undefined;
  }
  return (input) => {
    let text = '';
    for (const part of parts) {
      const value = typeof part === 'string' ? part : lookup(input, part);
      const piece = value == null ? '' : String(value);
      chargeOutput(input, piece.length);
      text += piece;
    }
    return text;
  };
}

/** The one parameter of a `{{__out x}}` that checkTemplate made of a text run or a plain mustache. */
function outParam(node: hbs.AST.Statement): hbs.AST.Expression | undefined {
  if (node.type !== 'MustacheStatement') return undefined;
  const { path, params, hash } = node as hbs.AST.MustacheStatement;
  const name = path.type === 'PathExpression' ? (path as hbs.AST.PathExpression).original : undefined;
  return name === OUT && params.length === 1 && !hash ? params[0] : undefined;
}

/** `a.b.c` from the input: no `@data`, `../`, `this` or `.` (those need Handlebars' frames). */
function isPlainPath(path: hbs.AST.PathExpression): boolean {
  return !path.data && path.depth === 0 && path.parts.length > 0 && !/^\.|this\b/.test(path.original);
}

/**
 * Handlebars' lookup under our runtime options (prototype access denied): an own property or
 * nothing, and a null or undefined value ends the path. Inputs are JSON, strings and node's
 * headers, so no own property holds a function (which Handlebars checks for `constructor`).
 */
function lookup(input: object, parts: string[]): unknown {
  let value: unknown = input;
  for (const name of parts) {
    if (value == null) return value;
    value = Object.hasOwn(value as object, name) ? (value as Record<string, unknown>)[name] : undefined;
  }
  return value;
}
