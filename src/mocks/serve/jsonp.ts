import { HttpError } from '../../http/errors.js';

/**
 * A JSONP callback name: identifiers joined by dots (`cb`, `jQuery3_1`, `app.handlers.got`), at most
 * 128 characters. Nothing else can reach the script: no brackets, quotes, parentheses or spaces.
 */
const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
const MAX_CALLBACK = 128;

/** The `callback` of a GET, checked (400 naming it when it is not a plain name), or undefined for JSON. */
export function jsonpCallback(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = Array.isArray(value) ? value[0]! : value;
  if (name.length > MAX_CALLBACK || !CALLBACK.test(name)) {
    throw new HttpError(400, `callback must be a name: identifiers joined by dots, at most ${MAX_CALLBACK} characters`, 'callback');
  }
  return name;
}

/**
 * The script a JSONP request gets, as Express's res.jsonp makes it for json-server 0.17: the call
 * only when the name is a function, U+2028 and U+2029 escaped (they end a line in older JavaScript).
 */
export function jsonpScript(callback: string, json: string): string {
  const safe = json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `/**/ typeof ${callback} === 'function' && ${callback}(${safe});`;
}
