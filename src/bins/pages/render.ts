import { LRUCache } from 'lru-cache';
import { assemble, type Panels } from '../../shared/assemble.js';
import { describeError, PANELS, processorsOf, type PanelName } from '../../shared/processors.js';
import { isTransient } from '../compile/pool.js';
import type { Compiler } from '../compile/compiler.js';
import type { Rendered } from './page-cache.js';
import type { StoredRevision } from '../store/store.js';

export type { PanelName };

/**
 * The panels after their preprocessors, and a message for each that failed to compile (its panel is then "");
 * `transient` when a failure may go otherwise next time (a timeout, a full queue).
 */
export type OutputPanels = { panels: Panels; errors: string[]; transient: boolean };

// Parsing a bin's JavaScript costs about a millisecond per 100 KB: kept per source, so reading an output page
// again (anyone may, as often as they like) does not parse it again.
const protectedCode = new LRUCache<string, string>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (code, source) => source.length + code.length + 1,
});

async function guarded(javascript: string): Promise<string> {
  let code = protectedCode.get(javascript);
  if (code === undefined) {
    // The parser (acorn) loads with the first page that has JavaScript, not at every start.
    const { protectLoops } = await import('../../shared/loop-protect.js');
    code = protectLoops(javascript);
    protectedCode.set(javascript, code);
  }
  return code;
}

/**
 * The panels as the output shows them: each through the preprocessor in settings.processors, the
 * JavaScript then with its loops guarded (src/shared/loop-protect.ts).
 */
export async function outputPanels(revision: StoredRevision, compiler: Compiler, client?: string): Promise<OutputPanels> {
  const processors = processorsOf(revision.settings);
  const results = await Promise.all(PANELS.map((name) => compiler.compile(processors[name], revision[name], client)));
  const panels: Panels = { html: '', css: '', javascript: '' };
  const errors: string[] = [];
  for (const [i, result] of results.entries()) {
    const name = PANELS[i]!;
    if (result.ok) panels[name] = name === 'javascript' ? await guarded(result.code) : result.code;
    else errors.push(describeError(processors[name], result.error));
  }
  return { panels, errors, transient: results.some(isTransient) };
}

export type OutputOptions = {
  /** Where the "edit" link points; none when undefined (quiet, source, download). */
  editUrl?: string;
  /** Script run first in the page (remote rendering: follows the bin live). */
  prelude?: string;
  /** Who asked (an address), for the compiler's fair share. */
  client?: string;
  /** The bin's page and nothing of ours: no "Made with" comment either (the quiet routes). */
  bare?: boolean;
};

/** A revision's output page, by the same rules as the editor's preview (src/shared/assemble.ts). */
export async function renderOutput(revision: StoredRevision, compiler: Compiler, options: OutputOptions = {}): Promise<string> {
  return (await renderPage(revision, compiler, options)).html;
}

/** renderOutput, saying whether the page may be kept (src/bins/pages/page-cache.ts). */
export async function renderPage(
  revision: StoredRevision,
  compiler: Compiler,
  { editUrl, prelude, client, bare }: OutputOptions = {},
): Promise<Rendered> {
  const { panels, errors, transient } = await outputPanels(revision, compiler, client);
  const label = bare ? undefined : `${revision.bin}/${revision.rev}`;
  return { html: assemble(panels, { editUrl, prelude, errors, label }), transient };
}

/** The panels served alone (`.html` is the whole output page). */
export type RawPanel = Exclude<PanelName, 'html'>;

const COMMENTS: Record<RawPanel, (text: string) => string> = {
  css: (text) => `/* ${text.replace(/\*\//g, '* /')} */\n`,
  javascript: (text) => `/* ${text.replace(/\*\//g, '* /')} */\n`,
};

/** One panel on its own, for `/:bin.js` and `.css`; a compile error is a comment in its place. */
export async function renderPanel(revision: StoredRevision, panel: RawPanel, compiler: Compiler, client?: string): Promise<string> {
  const processor = processorsOf(revision.settings)[panel];
  const result = await compiler.compile(processor, revision[panel], client);
  return result.ok ? result.code : COMMENTS[panel](describeError(processor, result.error));
}
