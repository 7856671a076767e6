/**
 * JS Bin's panel lists in a query string: `/abc/edit?html,js,output` opens those panels and
 * `/abc/embed?js,console` shows those. Shared by the server (embed pages) and the editor (panel links,
 * the share box), so both read and write the same form.
 */

/** The panes of the editor, in the order it shows them. */
export const PANES = ['html', 'css', 'javascript', 'console', 'output'] as const;
export type Pane = (typeof PANES)[number];

/** Each pane's name in a link: JS Bin wrote `js` for javascript and `output` for the rendered page. */
const LINK_NAMES: Record<Pane, string> = { html: 'html', css: 'css', javascript: 'js', console: 'console', output: 'output' };

/** The names a link may use for each pane; `live` is JS Bin's older name of the output. */
const FROM_LINK: Record<string, Pane> = {
  html: 'html',
  css: 'css',
  js: 'javascript',
  javascript: 'javascript',
  console: 'console',
  output: 'output',
  live: 'output',
};

/** Whose order `panesFromQuery` answers in: the editor's (the default), or the query's own. */
export type PaneOrder = 'panes' | 'query';

/**
 * The panes a query string names (`?html,js,output`, `html&js`), in pane order or, with `order: 'query'`, in
 * the order first named (the embed page's tabs); undefined when it names none, so the caller keeps its own
 * default. Parameters with a value (`?api_key=…`) are not panel names.
 */
export function panesFromQuery(search: string, { order = 'panes' }: { order?: PaneOrder } = {}): Pane[] | undefined {
  const named: Pane[] = [];
  for (const part of search.replace(/^\?/, '').split('&')) {
    const [name, value = ''] = part.split('=');
    if (value !== '') continue;
    for (const word of name!.split(',')) {
      const pane = Object.hasOwn(FROM_LINK, word.toLowerCase()) ? FROM_LINK[word.toLowerCase()] : undefined;
      if (pane && !named.includes(pane)) named.push(pane);
    }
  }
  if (named.length === 0) return undefined;
  return order === 'query' ? named : PANES.filter((pane) => named.includes(pane));
}

/** The query string that names `panes`, as JS Bin wrote it: `html,js,output` (no leading `?`). */
export function panesQuery(panes: readonly Pane[]): string {
  return PANES.filter((pane) => panes.includes(pane)).map((pane) => LINK_NAMES[pane]).join(',');
}
