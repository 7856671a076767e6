import type { Parser } from '@lezer/common';
import { classHighlighter, highlightCode } from '@lezer/highlight';

/**
 * Read-only highlighting for the embed page's code panels: Lezer's parsers (the ones the editor's
 * CodeMirror languages are built on) and `highlightCode`, without an editor. The page's bundle loads this
 * module, and each grammar, only when a panel needs it (scripts/build-client.mjs splits them out), so an
 * embed of the output alone loads none. The colours are classes (`tok-keyword`…) styled in templates/embed.html.
 */

/** Past this, a panel stays plain: parsing it would hold up the page for little gain. */
const MAX_CHARS = 200_000;

/**
 * The grammar for each processor (`data-language`). LESS has no Lezer grammar outside CodeMirror's editor
 * package; SCSS's reads it closely (nesting, `//` comments, `&`). Pug, Stylus and CoffeeScript have only
 * CodeMirror 5 modes, which need an editor: they stay plain.
 */
const GRAMMARS: Record<string, () => Promise<Parser>> = {
  html: async () => (await import('./html-grammar.js')).htmlParser(),
  markdown: async () => (await import('@lezer/markdown')).parser,
  css: async () => (await import('@lezer/css')).parser,
  less: async () => (await import('@lezer/sass')).parser,
  scss: async () => (await import('@lezer/sass')).parser,
  javascript: async () => (await import('@lezer/javascript')).parser,
  typescript: async () => (await import('@lezer/javascript')).parser.configure({ dialect: 'ts' }),
  jsx: async () => (await import('@lezer/javascript')).parser.configure({ dialect: 'jsx ts' }),
};

/** Highlights each `<code data-language>` whose language has a grammar, in place; the text stays the same. */
export async function highlightAll(blocks: Iterable<HTMLElement>): Promise<void> {
  await Promise.all([...blocks].map(highlight));
}

async function highlight(code: HTMLElement): Promise<void> {
  const grammar = GRAMMARS[code.dataset.language ?? ''];
  const text = code.textContent ?? '';
  if (!grammar || text.length > MAX_CHARS) return;
  const parser = await grammar();
  const out = document.createDocumentFragment();
  highlightCode(
    text,
    parser.parse(text),
    classHighlighter,
    (piece, classes) => {
      if (!classes) return out.append(piece);
      const span = document.createElement('span');
      span.className = classes;
      span.textContent = piece;
      out.append(span);
    },
    () => out.append('\n'),
  );
  code.replaceChildren(out);
  code.dataset.highlighted = '';
}
