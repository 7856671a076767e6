import type Handlebars from 'handlebars';
import { checkTemplate, type CompileBudget, newCompileBudget } from './ast.js';
import { directRender } from './direct.js';
import { createTemplateEnv } from './helpers.js';
import { TemplateError } from './error.js';
import { CpuBudgetExceeded } from '../../gates/cpu-budget.js';

export { TemplateError } from './error.js';
export { useCpuBudget } from './helpers.js';
export { type CompileBudget, newCompileBudget } from './ast.js';

/**
 * What a template sees of the request. Make one per request: the render limits (docs/mock-api.md,
 * "Templates") count per input object, over every field rendered with it; give it the request's
 * CPU budget with useCpuBudget.
 */
export type TemplateInput = {
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  /** Lower-cased names, as node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or its text when it is not JSON, or undefined when there is none. */
  body: unknown;
  method: string;
  path: string;
};

export type Render = (input: TemplateInput) => string;

// Our own environment: only the helpers registered there exist, whatever else runs in the process.
// Made at the first compile, so a server whose endpoints have no templates does not load Handlebars.
let made: typeof Handlebars | undefined;
const templateEnv = () => (made ??= createTemplateEnv());
// Denied outright rather than left to Handlebars' default, which also logs each denied name to the console.
const RUNTIME = { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false };

function compileString(source: string, field: string, budget: CompileBudget): Render {
  let template: HandlebarsTemplateDelegate;
  try {
    // Parsed and checked now, so a syntax error or an unknown helper is a 400 at save; Handlebars
    // compiles the checked program to code on its first render.
    const env = templateEnv();
    const program = checkTemplate(env.parse(source), field, budget, env.helpers);
    const direct = directRender(program);
    if (direct) return guarded(direct, field);
    // JSON and text bodies, not HTML: nothing is escaped.
    template = env.compile(program, { noEscape: true, strict: false });
  } catch (err) {
    if (err instanceof TemplateError) throw err;
    throw new TemplateError(field, (err as Error).message);
  }
  return guarded((input) => template(input, RUNTIME), field);
}

/** `render` with its failures (a limit, a helper's error) as TemplateErrors naming `field`; the CPU gate's as is. */
function guarded(render: Render, field: string): Render {
  return (input) => {
    try {
      return render(input);
    } catch (err) {
      if (err instanceof TemplateError || err instanceof CpuBudgetExceeded) throw err;
      throw new TemplateError(field, (err as Error).message);
    }
  };
}

/**
 * A text template (a `body` or a header value). Pass one `budget` for all the templates of a
 * record: it bounds their expressions in all, and so the CPU a save may cost.
 */
export function compileText(source: string, field: string, budget = newCompileBudget()): Render {
  if (!source.includes('{{')) return () => source;
  return compileString(source, field, budget);
}

/**
 * Every string in a serialized JSON value (keys left alone) becomes a template; the result renders
 * the value back to JSON text with each string replaced by its rendering.
 */
export function compileJson(json: string, field: string, budget = newCompileBudget()): Render {
  if (!json.includes('{{')) return () => json;
  return compileValue(JSON.parse(json) as unknown, field, budget);
}

/**
 * The JSON text of `value` with its strings rendered, written directly rather than building the
 * value and stringifying it: keys and untemplated parts are JSON text once, at compile time. The
 * text is what JSON.stringify gives: Object.entries of a parsed object are in its key order.
 */
function compileValue(value: unknown, field: string, budget: CompileBudget): Render {
  if (typeof value === 'string' && value.includes('{{')) {
    const render = compileString(value, field, budget);
    return (input) => JSON.stringify(render(input));
  }
  if (Array.isArray(value)) {
    const items = value.map((item, i) => compileValue(item, `${field}[${i}]`, budget));
    return (input) => `[${items.map((item) => item(input)).join(',')}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item], i) => {
      const name = `${i === 0 ? '' : ','}${JSON.stringify(key)}:`;
      return [name, compileValue(item, `${field}.${key}`, budget)] as const;
    });
    return (input) => {
      let text = '{';
      for (const [key, item] of entries) text += key + item(input);
      return `${text}}`;
    };
  }
  const text = JSON.stringify(value);
  return () => text;
}
