import { LineCounter, parseDocument } from 'yaml';

/**
 * A validation error as the parser words it, with the place in the user's file. The parser
 * draws its code frame over the document printed as JSON (`> 12 |   "info": {`), whose lines are
 * not the file's: the frame's line gives the JSON pointer, the pointer the file's line and column.
 * A message with no frame (the parser's own checks name the path in words) is kept as it is.
 */
export type PlacedError = { message: string; pointer?: string[] };

/** The message with its place, and the pointer it names when it has a frame. */
export function placeError(message: string, document: unknown, text: string): PlacedError {
  const [first = ''] = message.split('\n');
  const frameLine = /^>\s*(\d+) \|/m.exec(message);
  if (!frameLine) return { message: message.trim() };
  const pointer = pointerAtLine(document, Number(frameLine[1]));
  if (pointer === undefined) return { message: first };
  const where = `#/${pointer.map((key) => key.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  const counter = new LineCounter();
  const node = parseDocument(text, { lineCounter: counter }).getIn(pointer, true) as { range?: number[] } | undefined;
  const at = node?.range ? counter.linePos(node.range[0]!) : undefined;
  return { message: `${first} at ${at ? `line ${at.line}, column ${at.col} ` : ''}(${where})`, pointer };
}

/** The path of the value that starts on `target` (1-based) of `JSON.stringify(value, null, 2)`. */
function pointerAtLine(value: unknown, target: number): string[] | undefined {
  let line = 0;
  let found: string[] | undefined;
  const walk = (node: unknown, path: string[]): void => {
    line++;
    if (line === target) found = path;
    if (found || typeof node !== 'object' || node === null) return;
    const entries = Array.isArray(node)
      ? node.map((item, i) => [String(i), item] as const)
      : Object.entries(node).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return;
    for (const [key, item] of entries) {
      walk(item, [...path, key]);
      if (found) return;
    }
    line++;
  };
  walk(value, []);
  return found;
}
