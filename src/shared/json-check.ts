/** Where a JSON text first goes wrong: an offset into the text and what was expected there. */
export type JsonError = { pos: number; message: string };

/**
 * The deepest nesting of arrays and objects taken from a client: deeper than any real document, and
 * shallow enough that every later stage (JSON.stringify of a collection's state, a template's walk)
 * stays well inside the stack. 5,000 overflowed JSON.stringify in the server.
 */
export const MAX_JSON_DEPTH = 1000;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * Checks `text` against RFC 8259 and returns its first error, or undefined when it is valid JSON.
 * Written out rather than read from JSON.parse's message, which names no position for some
 * errors ("Unexpected token 'x', ... is not valid JSON") and words them differently per browser.
 */
export function findJsonError(text: string): JsonError | undefined {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw { pos: at, message } satisfies JsonError;
  };
  const found = () => (i < text.length ? `'${text[i]}'` : 'the end');
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const expect = (char: string, what: string) => {
    space();
    if (text[i] !== char) fail(`expected ${what} but found ${found()}`);
    i++;
  };

  const string = () => {
    const start = i++;
    for (;;) {
      if (i >= text.length) fail('this string is never closed', start);
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c < ' ') fail('a control character (such as a line break) inside a string must be escaped');
      if (c === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!HEX4.test(text.slice(i + 2, i + 6))) fail('\\u must be followed by four hex digits');
          i += 6;
        } else if (next !== undefined && ESCAPES.has(next)) i += 2;
        else fail(`'\\${next ?? ''}' is not a JSON escape`);
      } else i++;
    }
  };

  const value = (depth: number): void => {
    space();
    if (depth > MAX_JSON_DEPTH) fail('nested too deeply');
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fail(`expected a property name in double quotes but found ${found()}`);
        string();
        expect(':', "':'");
        value(depth + 1);
        space();
        if (text[i] === '}') return void i++;
        if (text[i] !== ',') fail(`expected ',' or '}' but found ${found()}`);
        i++;
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        value(depth + 1);
        space();
        if (text[i] === ']') return void i++;
        if (text[i] !== ',') fail(`expected ',' or ']' but found ${found()}`);
        i++;
      }
    }
    if (c === '"') return string();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) return void (i += word.length);
    }
    NUMBER.lastIndex = i;
    if (c !== undefined && NUMBER.test(text)) return void (i = NUMBER.lastIndex);
    fail(i >= text.length ? 'expected a value but the text ends' : `expected a value but found ${found()}`);
  };

  try {
    value(0);
    space();
    if (i < text.length) fail(`unexpected ${found()} after the end of the value`);
    return undefined;
  } catch (err) {
    if (typeof err === 'object' && err !== null && 'pos' in err) return err as JsonError;
    throw err;
  }
}

/** The 1-based line and column of `offset` in `text`, as editors count them. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

/** A JSON text's first error worded for a person: "expected ':' but found '2' at line 3, column 7". */
export function describeJsonError(text: string): string | undefined {
  const error = findJsonError(text);
  if (!error) return undefined;
  const { line, column } = lineColumn(text, error.pos);
  return `${error.message} at line ${line}, column ${column}`;
}
