/**
 * Loop protection, as JS Bin had it: every loop of a bin's JavaScript is guarded, and a loop that runs on
 * for more than LOOP_LIMIT_MS is broken out of with a console warning that names its line, so one
 * `while (true) {}` cannot freeze the preview or an output page for good. A `// noprotect` comment turns
 * it off. Pure (acorn, no Node or DOM API): the server's output pages and the editor's preview both run
 * it and must agree. Nothing is put on a new line, so line numbers stay the user's.
 */
import { parse, type Node } from 'acorn';

export const LOOP_LIMIT_MS = 100;

/** The guard's name in the page; long and unlikely, as the bin's own globals share the scope. */
const GUARD = '__snippetkitLoop';

const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

/** A loop as the guard sees it: the statement to wrap (its labels included), the loop and its body. */
type Loop = { outer: Node; loop: Node; body: Node };

type Insert = { at: number; text: string };

/**
 * The guard, defined once per page (the first protected script defines it; others reuse it). Each loop
 * is started afresh when entered (`r`), then checked on every pass; past the limit it reports once and
 * answers true, and the loop breaks.
 */
const RUNTIME =
  `var ${GUARD}=typeof ${GUARD}==='function'?${GUARD}:(function(){var s={};` +
  `function g(id,line){var now=Date.now();if(!s[id]){s[id]=now;return false}if(now-s[id]<=${LOOP_LIMIT_MS})return false;` +
  `s[id]=0;console.warn('Exiting potential infinite loop at line '+line+'. To disable loop protection: add "// noprotect" to your code');` +
  `return true}g.r=function(id){s[id]=0};return g})();`;

/** `code` with its loops guarded; as it was when it says `// noprotect`, has no loop or does not parse. */
export function protectLoops(code: string): string {
  if (/\/\/\s*noprotect\b/.test(code) || !/\b(?:for|while|do)\b/.test(code)) return code;
  let program: Node & { body: Node[] };
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'script' }) as never;
  } catch {
    // The browser reports the syntax error itself, at the user's own line.
    return code;
  }
  const loops: Loop[] = [];
  findLoops(program, undefined, loops);
  if (loops.length === 0) return code;
  const lineOf = lineFinder(code);

  const inserts: Insert[] = [{ at: prologueEnd(program), text: RUNTIME }];
  loops.forEach(({ outer, body, loop }, i) => {
    const id = i + 1;
    const check = `if(${GUARD}(${id},${lineOf(loop.start)}))break;`;
    // A block around the whole statement, so the reset runs each time the loop is entered, and a statement
    // before a loop that is the body of an `if` or of a label stays where it was.
    inserts.push({ at: outer.start, text: `{${GUARD}.r(${id});` });
    if (body.type === 'BlockStatement') {
      inserts.push({ at: body.start + 1, text: check });
    } else {
      inserts.push({ at: body.start, text: `{${check}` }, { at: body.end, text: '}' });
    }
    inserts.push({ at: outer.end, text: '}' });
  });
  return apply(code, inserts);
}

/** Walks every node; `label` is the outermost label statement directly around the current node. */
function findLoops(node: Node, label: Node | undefined, loops: Loop[]): void {
  if (LOOPS.has(node.type)) {
    loops.push({ outer: label ?? node, loop: node, body: (node as Node & { body: Node }).body });
  }
  for (const key of Object.keys(node)) {
    const value = (node as unknown as Record<string, unknown>)[key];
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (!isNode(child)) continue;
      // A label passes itself on to what it labels (labels may nest: `a: b: for …`).
      const outer = node.type === 'LabeledStatement' && key === 'body' ? (label ?? node) : undefined;
      findLoops(child, outer, loops);
    }
  }
}

/** The 1-based line of an offset (acorn's own locations cost a third more parse time on every node). */
function lineFinder(code: string): (offset: number) => number {
  const starts = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** After any directives ("use strict" must stay first to count), else the start. */
function prologueEnd(program: { body: Node[] }): number {
  let end = 0;
  for (const statement of program.body) {
    if (!(statement as Node & { directive?: string }).directive) break;
    end = statement.end;
  }
  return end;
}

/** Inserts in order of position; at one position, in the order given. */
function apply(code: string, inserts: Insert[]): string {
  const sorted = inserts.map((insert, order) => ({ ...insert, order })).sort((a, b) => a.at - b.at || a.order - b.order);
  let out = '';
  let from = 0;
  for (const { at, text } of sorted) {
    out += code.slice(from, at) + text;
    from = at;
  }
  return out + code.slice(from);
}
