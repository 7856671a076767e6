import { isJsonObject } from '../../http/json-body.js';
import type { When } from '../record/record.js';
import type { TemplateInput } from '../templates/template.js';

/**
 * True when every part `when` gives matches the request (docs/mock-api.md, "Serving"). A part the
 * request lacks (no such query key, header, parameter, or a body that is not a JSON object) does not match.
 */
export function matchesWhen(when: When, input: TemplateInput): boolean {
  if (when.method && !when.method.includes(input.method)) return false;
  if (when.params && !everyKey(when.params, (key, want) => own(input.params, key) === want)) return false;
  if (when.query) {
    const ok = everyKey(when.query, (key, want) => {
      const got = own(input.query, key);
      if (got === undefined) return false;
      const wanted = Array.isArray(want) ? want : [want];
      // A key sent several times matches when any of its values does.
      return (Array.isArray(got) ? got : [got]).some((value) => wanted.includes(value));
    });
    if (!ok) return false;
  }
  if (when.headers) {
    const ok = everyKey(when.headers, (name, want) => {
      const got = own(input.headers, name);
      return Array.isArray(got) ? got.includes(want) : got === want;
    });
    if (!ok) return false;
  }
  if (when.body && !(isJsonObject(input.body) && contains(input.body, when.body))) return false;
  return true;
}

/** Every key of `want` is in `got` with a deep-equal value; other keys of `got` do not matter (verification uses it too). */
export function contains(got: Record<string, unknown>, want: Record<string, unknown>): boolean {
  return everyKey(want, (key, value) => Object.hasOwn(got, key) && deepEqual(got[key], value));
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}

function everyKey<V>(object: Record<string, V>, test: (key: string, value: V) => boolean): boolean {
  return Object.entries(object).every(([key, value]) => test(key, value));
}

/** Own properties only: "constructor" or "__proto__" in a `when` is never found on a prototype. */
function own<V>(object: Record<string, V>, key: string): V | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}
