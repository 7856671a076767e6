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

/** Calls a faker method by name; throws an Error saying so when there is no such method. */
export function callFaker(name: unknown): string {
  if (typeof name !== 'string') throw new Error("faker needs a method name such as 'person.fullName'");
  const method = fakerMethod(name);
  if (!method) throw new Error(`faker has no method '${name}' (use 'module.method', such as 'person.fullName')`);
  const value = method();
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}
