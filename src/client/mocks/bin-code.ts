import type { PathSegment } from './path-params.js';
import type { TryCall } from './try-it.js';

/** What "Try it in a bin" writes: the endpoint, where it answers, and the call "Try it" is set up to make. */
export type BinCodeInput = {
  /** The endpoint's name and route (`users`, `users/:id`). */
  name: string;
  route: string;
  call: TryCall;
  /** The endpoints' base as a path on the bins' origin: `/endpoint/`, or under a proxy's prefix. */
  endpoints: string;
};

const literal = (text: string) => JSON.stringify(text);
/** Text for a line comment: no line break can end it early. */
const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]/g, ' ');

// Words a constant of the bin's code may not take: JavaScript's reserved words, and the globals the code uses.
const TAKEN = new Set([
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum',
  'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null',
  'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield',
  'let', 'static', 'implements', 'interface', 'package', 'private', 'protected', 'public', 'await', 'arguments',
  'eval', 'undefined', 'NaN', 'Infinity', 'fetch', 'console', 'JSON', 'encodeURIComponent', 'res', 'text', 'answer',
  'err', 'window', 'document', 'location',
]);

/** A constant's name for path parameter `name`: the name itself when JavaScript takes it, else `param1`, `param2`… */
function constantNames(segments: readonly PathSegment[]): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>();
  let n = 0;
  for (const segment of segments) {
    if (segment.kind !== 'param' || names.has(segment.name)) continue;
    let name = segment.name;
    if (!/^[A-Za-z_$][\w$]{0,39}$/.test(name) || TAKEN.has(name) || used.has(name)) {
      do name = `param${++n}`;
      while (used.has(name));
    }
    names.set(segment.name, name);
    used.add(name);
  }
  return names;
}

/**
 * The URL as a JavaScript expression: the path's fixed parts as strings, each parameter its constant
 * percent-encoded; a `*` keeps what "Try it" has in it (its slashes too), or drops out when empty.
 */
function urlExpression(input: BinCodeInput, names: Map<string, string>): string {
  const parts: string[] = [];
  let fixed = input.endpoints;
  for (const segment of input.call.segments) {
    const glue = fixed === input.endpoints || fixed.endsWith('/') ? '' : '/';
    if (segment.kind === 'static') fixed += glue + segment.text;
    else if (segment.kind === 'rest') {
      const rest = input.call.values.get('*') ?? '';
      if (rest !== '') fixed += glue + rest.split('/').map(encodeURIComponent).join('/');
    } else {
      parts.push(literal(fixed + glue), `encodeURIComponent(${names.get(segment.name)})`);
      fixed = '';
    }
  }
  const search = new URLSearchParams(input.call.query).toString();
  fixed += search ? `?${search}` : '';
  if (fixed !== '' || parts.length === 0) parts.push(literal(fixed));
  return parts.join(' + ');
}

/** The request's options for fetch, or nothing for a plain GET. */
function options(call: TryCall): string {
  const lines: string[] = [];
  if (call.method !== 'GET') lines.push(`  method: ${literal(call.method)},`);
  if (call.headers.length > 0) {
    const pairs = call.headers.map(([name, value]) => `    ${literal(name)}: ${literal(value)},`);
    lines.push('  headers: {', ...pairs, '  },');
  }
  if (call.body !== undefined) lines.push(`  body: ${bodyExpression(call.body)},`);
  return lines.length === 0 ? '' : `, {\n${lines.join('\n')}\n}`;
}

/** JSON as JSON.stringify of its value, which the user edits as code; any other text as a string. */
function bodyExpression(body: string): string {
  try {
    const value: unknown = JSON.parse(body);
    return `JSON.stringify(${JSON.stringify(value, null, 2).replaceAll('\n', '\n  ')})`;
  } catch {
    return literal(body);
  }
}

/**
 * A bin's JavaScript that makes the call "Try it" is set up to make, from the bin's own origin, and logs
 * the status and the answer (as JSON when it parses) in the console. Path parameters are constants at
 * the top, filled with "Try it"'s values or an example, for the user to change. Every string the user
 * gave is a JSON string literal, so no value can end one; `</script` is escaped by the page's assembler.
 */
export function binCode(input: BinCodeInput): string {
  const names = constantNames(input.call.segments);
  const constants = [...names].map(
    ([param, name]) => `const ${name} = ${literal(input.call.values.get(param) ?? '')}; // :${oneLine(param)}`,
  );
  const what = oneLine(`${input.call.method} ${input.endpoints}${input.route}`);
  return [
    oneLine(`// Calls the mock endpoint ${literal(input.name)} (${what}) and logs its answer in the console.`),
    ...(constants.length > 0 ? [...constants, ''] : []),
    `fetch(${urlExpression(input, names)}${options(input.call)})`,
    '  .then(async (res) => {',
    '    const text = await res.text();',
    '    let answer = text;',
    '    try {',
    '      answer = JSON.parse(text);',
    '    } catch (err) {',
    '      // not JSON: logged as text',
    '    }',
    '    console.log(res.status, answer);',
    '  })',
    "  .catch((err) => console.error('The call failed:', err.message));",
    '',
  ].join('\n');
}
