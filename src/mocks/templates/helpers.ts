import { randomUUID } from 'node:crypto';
import Handlebars from 'handlebars';
import { callFaker } from './faker.js';

/** Per request (per template input), over every field rendered: characters of output, and steps. */
export const MAX_OUTPUT = 1024 * 1024;
export const MAX_STEPS = 100_000;

/** The helper output goes through (ast.ts rewrites each mustache and text to call it). */
export const OUT = '__out';
/** Helpers that charge their own results: a mustache calling one is not rewritten to go through OUT. */
export const SELF_COUNTED = new Set(['now', 'uuid', 'randomInt', 'json', 'faker']);

type Budget = { output: number; steps: number };
// Keyed by the render's root context, the request's template input: one budget per request.
const budgets = new WeakMap<object, Budget>();

/**
 * Counts one step and `output` characters against the request's budget; past either limit the
 * render fails (a template error, 500). An attacker writes the template and sends the request, so
 * nothing else bounds a nested #each over a large body.
 */
function charge(options: Handlebars.HelperOptions, output: number): void {
  chargeOutput((options.data as { root?: object } | undefined)?.root ?? options, output);
}

/** charge() for a render outside Handlebars (direct.ts): `root` is the request's template input. */
export function chargeOutput(root: object, output: number): void {
  let budget = budgets.get(root);
  if (!budget) budgets.set(root, (budget = { output: 0, steps: 0 }));
  budget.steps += 1;
  budget.output += output;
  if (budget.steps > MAX_STEPS) throw new Error(`the templates went over ${MAX_STEPS} steps for one request`);
  if (budget.output > MAX_OUTPUT) {
    throw new Error(`the templates went over ${MAX_OUTPUT} characters of output for one request`);
  }
}

/** `fn` as a helper whose text result is charged; the options come last, as Handlebars passes them. */
function counted(fn: (...args: unknown[]) => string): Handlebars.HelperDelegate {
  return (...args: unknown[]) => {
    const options = args.pop() as Handlebars.HelperOptions;
    const text = fn(...args);
    charge(options, text.length);
    return text;
  };
}

/** An isolated Handlebars with only our helpers and the harmless built-ins (no `log`). */
export function createTemplateEnv(): typeof Handlebars {
  const env = Handlebars.create();
  // `log` writes to the server's console.
  env.unregisterHelper('log');
  env.registerHelper('each', each);
  env.registerHelper(OUT, counted((value) => (value == null ? '' : String(value))));
  env.registerHelper('now', counted(() => new Date().toISOString()));
  env.registerHelper('uuid', counted(() => randomUUID()));
  env.registerHelper('randomInt', counted(randomInt));
  env.registerHelper('json', counted((value) => JSON.stringify(value) ?? ''));
  env.registerHelper('faker', counted(callFaker));
  return env;
}

function randomInt(a: unknown, b: unknown): string {
  const min = Number(a);
  const max = Number(b);
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
    throw new Error('randomInt takes two integers, the smaller first, such as {{randomInt 1 100}}');
  }
  return String(min + Math.floor(Math.random() * (max - min + 1)));
}

/** Handlebars' #each over arrays and objects (JSON has no other iterables), each pass one step. */
function each(this: unknown, context: unknown, options: Handlebars.HelperOptions): string {
  if (typeof context !== 'object' || context === null) return options.inverse(this);
  const keys: (string | number)[] = Array.isArray(context) ? context.map((_, i) => i) : Object.keys(context);
  if (keys.length === 0) return options.inverse(this);
  const data = options.data ? Handlebars.createFrame(options.data) : undefined;
  let out = '';
  for (const [index, key] of keys.entries()) {
    charge(options, 0);
    const value = (context as Record<string | number, unknown>)[key];
    if (data) Object.assign(data, { key, index, first: index === 0, last: index === keys.length - 1 });
    out += options.fn(value, { data, blockParams: [value, key] });
  }
  return out;
}
