/**
 * JS Bin's panel lists in a query string: `/abc/edit?html,js,output` opens those panels and
 * `/abc/embed?js,console` shows those. Shared by the server (embed pages) and the editor (panel links,
 * the share box), so both read and write the same form.
 */

/** A bin's panes, in the order the editor shows them: the editor's and the embed page's. */
export const PANES = ['html', 'css', 'javascript', 'console', 'output'] as const;
export type Pane = (typeof PANES)[number];

/**
 * The editor's panes: a bin's, then the Mocks pane (this server's mock endpoints, not part of the bin).
 * Editor links may name it (`/abc/edit?js,mocks,output`); the embed page, which has no mocks, ignores it.
 */
export const EDITOR_PANES = [...PANES, 'mocks'] as const;
export type EditorPane = (typeof EDITOR_PANES)[number];

/** Each pane's name in a link: JS Bin wrote `js` for javascript and `output` for the rendered page. */
const LINK_NAMES: Record<EditorPane, string> = {
  html: 'html',
  css: 'css',
  javascript: 'js',
  console: 'console',
  output: 'output',
  mocks: 'mocks',
};

/** The names a link may use for each pane; `live` is JS Bin's older name of the output. */
const FROM_LINK: Record<string, EditorPane> = {
  html: 'html',
  css: 'css',
  js: 'javascript',
  javascript: 'javascript',
  console: 'console',
  output: 'output',
  live: 'output',
  mocks: 'mocks',
};

/** Whose order `panesFromQuery` answers in: the editor's (the default), or the query's own. */
export type PaneOrder = 'panes' | 'query';

/**
 * The panes a query string names (`?html,js,output`, `html&js`), in pane order or, with `order: 'query'`, in
 * the order first named (the embed page's tabs); undefined when it names none, so the caller keeps its own
 * default. Parameters with a value (`?api_key=…`) are not panel names.
 */
export function panesFromQuery(search: string, { order = 'panes' }: { order?: PaneOrder } = {}): Pane[] | undefined {
  return named(search, PANES, order);
}

/** The editor's panes a query string names, `mocks` included, in the editor's order; as `panesFromQuery`. */
export function editorPanesFromQuery(search: string): EditorPane[] | undefined {
  return named(search, EDITOR_PANES, 'panes');
}

function named<P extends EditorPane>(search: string, panes: readonly P[], order: PaneOrder): P[] | undefined {
  const found: P[] = [];
  for (const part of search.replace(/^\?/, '').split('&')) {
    const [name, value = ''] = part.split('=');
    if (value !== '') continue;
    for (const word of name!.split(',')) {
      const pane = Object.hasOwn(FROM_LINK, word.toLowerCase()) ? FROM_LINK[word.toLowerCase()] : undefined;
      if (pane && (panes as readonly EditorPane[]).includes(pane) && !found.includes(pane as P)) found.push(pane as P);
    }
  }
  if (found.length === 0) return undefined;
  return order === 'query' ? found : panes.filter((pane) => found.includes(pane));
}

/** The query string that names `panes`, as JS Bin wrote it: `html,js,output` (no leading `?`). */
export function panesQuery(panes: readonly EditorPane[]): string {
  return EDITOR_PANES.filter((pane) => panes.includes(pane)).map((pane) => LINK_NAMES[pane]).join(',');
}
