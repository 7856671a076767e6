import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';

/**
 * `{{faker 'module.method'}}`: a method of one of faker's modules, called with no arguments.
 * Faker takes about half a second to load, so it is loaded on first use, not at start-up.
 */

// Module methods that need arguments to do anything, some of them functions to call.
const EXCLUDED_MODULES = new Set(['helpers']);

let methods: Map<string, () => unknown> | undefined;

function loadMethods(): Map<string, () => unknown> {
  // Node 20.19+ requires an ES module synchronously: templates render inside a synchronous answer.
  const { faker } = createRequire(import.meta.url)('@faker-js/faker') as { faker: Faker };
  const found = new Map<string, () => unknown>();
  for (const [moduleName, module] of Object.entries(faker)) {
    // A module is a class instance; plain objects (fakerCore, definitions) are data, not modules.
    if (EXCLUDED_MODULES.has(moduleName) || typeof module !== 'object' || module === null) continue;
    if (Object.getPrototypeOf(module) === Object.prototype) continue;
    // Own members only: faker binds each method on its module, and nothing inherited is reachable.
    for (const name of Object.getOwnPropertyNames(module)) {
      const member = (module as Record<string, unknown>)[name];
      if (typeof member === 'function' && !name.startsWith('_')) {
        found.set(`${moduleName}.${name}`, member as () => unknown);
      }
    }
  }
  return found;
}

/** The method named `name` ('person.fullName'), or undefined when there is no such method. */
export function fakerMethod(name: string): (() => unknown) | undefined {
  methods ??= loadMethods();
  return methods.get(name);
}

// Methods that printed when called (faker's deprecation warnings), with what they said; and those tried.
const refused = new Map<string, string>();
const tried = new Set<string>();
const CONSOLE = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/**
 * Calls `name`'s method with the console caught: faker's deprecated methods print a warning on every
 * call (`image.urlLoremFlickr`: 292 KB of server log for a 4 KB request), and a template's output
 * is the caller's, never the server's log. A method that printed is refused from then on.
 */
function quietly(name: string, method: () => unknown): unknown {
  const kept = CONSOLE.map((level) => console[level]);
  let said: string | undefined;
  for (const level of CONSOLE) {
    console[level] = (...args: unknown[]) => {
      said ??= args.map(String).join(' ');
    };
  }
  try {
    return method();
  } finally {
    CONSOLE.forEach((level, i) => (console[level] = kept[i]!));
    tried.add(name);
    if (said !== undefined) refused.set(name, printed(said));
  }
}

/** Faker's own words, which name the replacement, without its prefix, on one line and capped. */
function printed(text: string): string {
  const line = text.replace(/^\[@faker-js\/faker\]:\s*/, '').replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/**
 * Why the existing method `name` is refused (faker's deprecation message, which names the
 * replacement), or undefined. Tried once, quietly, the first time a name is asked about.
 */
export function fakerRefusal(name: string): string | undefined {
  const method = fakerMethod(name);
  if (method && !tried.has(name)) {
    try {
      quietly(name, method);
    } catch {
      // a method that throws when called bare fails at render, as before
    }
  }
  return refused.get(name);
}

/** Calls a faker method by name; throws an Error saying so when there is no such method or it is refused. */
export function callFaker(name: unknown): string {
  if (typeof name !== 'string') throw new Error("faker needs a method name such as 'person.fullName'");
  const method = fakerMethod(name);
  if (!method) throw new Error(`faker has no method '${name}' (use 'module.method', such as 'person.fullName')`);
  const before = refused.get(name);
  if (before !== undefined) throw new Error(before);
  const value = quietly(name, method);
  const now = refused.get(name);
  if (now !== undefined) throw new Error(now);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}
