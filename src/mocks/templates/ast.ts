import { fakerMethod, fakerRefusal } from './faker.js';
import { TemplateError } from './error.js';
import { OUT, SELF_COUNTED } from './helpers.js';

type Node = hbs.AST.Node;
type Program = hbs.AST.Program;
type Expression = hbs.AST.Expression;
type PathExpression = hbs.AST.PathExpression;
type SubExpression = hbs.AST.SubExpression;
type Hash = hbs.AST.Hash | undefined;

/** Expressions ({{…}}, blocks, subexpressions) one record's templates may hold in all. */
export const MAX_EXPRESSIONS = 1000;

/** What is left of a record's expressions: compiling costs about 0.2 ms and 40 KB each. */
export type CompileBudget = { expressions: number };

export function newCompileBudget(): CompileBudget {
  return { expressions: MAX_EXPRESSIONS };
}

/**
 * Checks a parsed template and rewrites it for counted output. Refused: partials and decorators
 * (only our helpers exist), calls of unknown helpers, a literal faker name faker lacks or that
 * prints when called (deprecated), and more expressions than the budget. Every mustache (but calls of helpers that charge their own
 * results) and every run of text then goes through the OUT helper, which charges its characters
 * to the request's render budget.
 */
export function checkTemplate(program: Program, field: string, budget: CompileBudget, helpers: object): Program {
  const fail = (node: Node, message: string) =>
    new TemplateError(field, `${message} (line ${node.loc.start.line}, column ${node.loc.start.column + 1})`);
  const isHelper = (name: string) => Object.hasOwn(helpers, name);

  const count = (node: Node) => {
    if (--budget.expressions < 0) {
      throw fail(node, `the templates of one endpoint may hold at most ${MAX_EXPRESSIONS} expressions in all`);
    }
  };
  const checkCall = (node: Node, path: PathExpression, params: Expression[]) => {
    const name = path.original;
    if (!isHelper(name)) throw fail(node, `unknown helper '${name}'`);
    if (name !== 'faker') return;
    const first = params[0] as hbs.AST.StringLiteral | undefined;
    if (first?.type !== 'StringLiteral') return;
    if (!fakerMethod(first.value)) {
      throw fail(node, `faker has no method '${first.value}' (use 'module.method', such as 'person.fullName')`);
    }
    // A deprecated method would print faker's warning to the server's log on every call.
    const refusal = fakerRefusal(first.value);
    if (refusal) throw fail(node, `faker's '${first.value}' is refused: ${refusal}`);
  };
  const expressions = (params: Expression[], hash: Hash) => {
    for (const param of params) expression(param);
    for (const pair of hash?.pairs ?? []) expression(pair.value);
  };
  const expression = (node: Expression) => {
    if (node.type !== 'SubExpression') return;
    const sub = node as SubExpression;
    count(sub);
    checkCall(sub, sub.path, sub.params);
    expressions(sub.params, sub.hash);
  };
  // Handlebars' rule: with arguments, or a plain name that is a helper, a mustache calls a helper.
  const callsHelper = (path: PathExpression, params: Expression[], hash: Hash) =>
    params.length > 0 || hash !== undefined || (!path.data && simpleName(path) && isHelper(path.original));

  const walk = (block: Program): Program => {
    const body = block.body.map((node) => {
      switch (node.type) {
        case 'ContentStatement':
          return out(node, literal(node, (node as hbs.AST.ContentStatement).value));
        case 'CommentStatement':
          return node;
        case 'MustacheStatement': {
          const mustache = node as hbs.AST.MustacheStatement;
          count(mustache);
          const path = asPath(mustache.path);
          expressions(mustache.params, mustache.hash);
          if (!callsHelper(path, mustache.params, mustache.hash)) return out(mustache, path);
          checkCall(mustache, path, mustache.params);
          if (SELF_COUNTED.has(path.original)) return { ...mustache, path };
          const { params, hash, loc } = mustache;
          return out(mustache, { type: 'SubExpression', path, params, hash, loc } as SubExpression);
        }
        case 'BlockStatement': {
          const block = node as hbs.AST.BlockStatement;
          count(block);
          if (callsHelper(block.path, block.params, block.hash)) checkCall(block, block.path, block.params);
          expressions(block.params, block.hash);
          const { program: inner, inverse } = block;
          return { ...block, program: inner && walk(inner), inverse: inverse && walk(inverse) };
        }
        case 'PartialStatement':
        case 'PartialBlockStatement':
          throw fail(node, 'partials ({{> …}}) are not available in templates');
        default:
          throw fail(node, 'decorators ({{* …}}) are not available in templates');
      }
    });
    return { ...block, body };
  };
  return walk(program);
}

/** A literal as a mustache's path is a property name (`{{"a b"}}` reads "a b"). */
function asPath(path: PathExpression | hbs.AST.Literal): PathExpression {
  if (path.type === 'PathExpression') return path as PathExpression;
  const name = String((path as hbs.AST.StringLiteral).value);
  return { type: 'PathExpression', data: false, depth: 0, parts: [name], original: name, loc: path.loc };
}

function simpleName(path: PathExpression): boolean {
  return path.parts.length === 1 && path.depth === 0 && !/^\.|this\b/.test(path.original);
}

function literal(node: Node, value: string): hbs.AST.StringLiteral {
  return { type: 'StringLiteral', value, original: value, loc: node.loc };
}

function out(node: Node, value: Expression): hbs.AST.MustacheStatement {
  const path: PathExpression = {
    type: 'PathExpression',
    data: false,
    depth: 0,
    parts: [OUT],
    original: OUT,
    loc: node.loc,
  };
  const strip = { open: false, close: false };
  return { type: 'MustacheStatement', path, params: [value], hash: undefined!, escaped: true, strip, loc: node.loc };
}
