/**
 * The code the editor's Mocks pane writes into a bin to call an endpoint, and the test of whether a
 * selection can become one. Pure, so it is tested without a browser.
 */

/** A path param's stand-in in a call: any value matches a `:param` route, and a number reads as an id. */
const SAMPLE = '1';

/**
 * A path an endpoint answers, from its route: each `:param` (and a final `*`) becomes `1`, an optional
 * `:param?` drops out, so the call matches the route as written (`users/:id` → `users/1`).
 */
export function callPath(route: string): string {
  return route
    .split('/')
    .filter((part) => part !== '' && !(part.startsWith(':') && part.endsWith('?')))
    .map((part) => (part.startsWith(':') || part === '*' ? SAMPLE : part))
    .join('/');
}

/** Where the cursor is, as far as the call's shape goes. */
export type CallPlace = {
  /** Inside an async function's body: `await` works there (a bin's script is a classic script). */
  inAsync: boolean;
  /** The JavaScript pane's preprocessor: CoffeeScript has no `const` and wants its own shape. */
  language: string;
  /** The line's indentation, repeated on every line after the first. */
  indent?: string;
  /** The last line of code before the call: a statement it does not end would run on into a `(`. */
  previous?: string;
};

/**
 * Whether a line starting with `(` after `previous` needs a `;`: unless that ends a statement or opens a
 * block (after a `}` too: `const f = function () {}` would call f with it; a spare `;` harms nothing).
 */
function runsOn(previous: string | undefined): boolean {
  const line = previous?.trim() ?? '';
  return line !== '' && !/[;{]$/.test(line) && !/^(\/\/|\/\*|\*)/.test(line);
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** `fetch`'s second argument for an endpoint that answers no GET, or '' when GET will do. */
function fetchOptions(methods: readonly string[] | null): string {
  if (methods === null || methods.includes('GET')) return '';
  const method = methods[0] ?? 'GET';
  if (!BODY_METHODS.has(method)) return `, { method: '${method}' }`;
  return `, { method: '${method}', headers: { 'content-type': 'application/json' }, body: JSON.stringify({}) }`;
}

/**
 * A call of `url` (as the bin's page will request it, e.g. `/endpoint/users/1`) that runs where it is put:
 * the one line `const res = await fetch(…);` inside an async function, else that line in an async
 * arrow run at once, which logs the answer (top-level `await` is an error in a classic script).
 */
export function fetchCall(url: string, methods: readonly string[] | null, place: CallPlace): string {
  const quoted = `'${url.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const call = `fetch(${quoted}${fetchOptions(methods)})`;
  const indent = place.indent ?? '';
  const lines =
    place.language === 'coffeescript'
      ? ['do ->', `  res = await ${call}`, '  console.log res.status, await res.json()']
      : place.inAsync
        ? [`const res = await ${call};`]
        : [`${runsOn(place.previous) ? ';' : ''}(async () => {`, `  const res = await ${call};`, '  console.log(res.status, await res.json());', '})();'];
  return lines.map((line, index) => (index === 0 ? line : indent + line)).join('\n');
}

/** The largest selection offered as a mock (the mock server's default body limit is 1 MiB). */
export const MAX_MOCK_JSON = 1024 * 1024;

/**
 * The JSON a selection holds, when it can be a mock's data: an object or an array (a bare number or
 * word is not worth offering), within MAX_MOCK_JSON characters; otherwise undefined.
 */
export function mockableJson(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.length > MAX_MOCK_JSON || !/^[[{]/.test(trimmed)) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
