import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type Handlebars from 'handlebars';
import { startCpuBudget, type CpuBudget } from '../../gates/cpu-budget.js';
import { callFaker } from './faker.js';

/** Per request (per template input), over every field rendered: characters of output. */
export const MAX_OUTPUT = 1024 * 1024;
/** What the CPU gate's refusal names as the work that went over. */
const WORK = 'the templates';

/** The helper output goes through (ast.ts rewrites each mustache and text to call it). */
export const OUT = '__out';
/** Helpers that charge their own results: a mustache calling one is not rewritten to go through OUT. */
export const SELF_COUNTED = new Set(['now', 'uuid', 'randomInt', 'json', 'faker']);

type Budget = { output: number; cpu: CpuBudget };
// Keyed by the render's root context, the request's template input: one budget per request.
const budgets = new WeakMap<object, Budget>();

/**
 * Renders with `root` (a request's template input) count against `cpu`, the request's CPU budget
 * (src/gates/cpu-budget.ts). Without one, the first render starts a default budget.
 */
export function useCpuBudget(root: object, cpu: CpuBudget): void {
  budgets.set(root, { output: budgets.get(root)?.output ?? 0, cpu });
}

/**
 * Charges `output` characters to the request's budget and checks its CPU time: past the output
 * limit the render fails (a template error, 500), past the time CpuBudgetExceeded (a 503). An
 * attacker writes the template and sends the request, so nothing else bounds a nested #each over
 * a large body. Called per helper call, output and #each pass: each costs microseconds at most.
 */
function charge(options: Handlebars.HelperOptions, output: number): void {
  chargeOutput((options.data as { root?: object } | undefined)?.root ?? options, output);
}

/** charge() for a render outside Handlebars (direct.ts): `root` is the request's template input. */
export function chargeOutput(root: object, output: number): void {
  let budget = budgets.get(root);
  if (!budget) budgets.set(root, (budget = { output: 0, cpu: startCpuBudget() }));
  budget.cpu.check(WORK);
  budget.output += output;
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

let loaded: typeof Handlebars | undefined;

/** Handlebars, loaded when the first template is compiled: a server without templates never pays for it. */
function handlebars(): typeof Handlebars {
  return (loaded ??= createRequire(import.meta.url)('handlebars') as typeof Handlebars);
}

/** An isolated Handlebars with only our helpers and the harmless built-ins (no `log`). */
export function createTemplateEnv(): typeof Handlebars {
  const env = handlebars().create();
  // `log` writes to the server's console.
  env.unregisterHelper('log');
  // Nor may Handlebars itself (its warning on a denied prototype property, say): a request's doing is
  // not the server's log. The logger object is Handlebars' own, shared by its environments (only ours).
  env.logger.log = () => {};
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

/** Handlebars' #each over arrays and objects (JSON has no other iterables), the budget checked each pass. */
function each(this: unknown, context: unknown, options: Handlebars.HelperOptions): string {
  if (typeof context !== 'object' || context === null) return options.inverse(this);
  const keys: (string | number)[] = Array.isArray(context) ? context.map((_, i) => i) : Object.keys(context);
  if (keys.length === 0) return options.inverse(this);
  const data = options.data ? handlebars().createFrame(options.data) : undefined;
  let out = '';
  for (const [index, key] of keys.entries()) {
    charge(options, 0);
    const value = (context as Record<string | number, unknown>)[key];
    if (data) Object.assign(data, { key, index, first: index === 0, last: index === keys.length - 1 });
    out += options.fn(value, { data, blockParams: [value, key] });
  }
  return out;
}
