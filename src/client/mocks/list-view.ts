import { listEndpoints, ROOT, type Delay, type EndpointSummary } from './common/api.js';
import { showSourceProblems, sourceBadge } from './source-badge.js';
import { age, byId, el } from './common/dom.js';

export type ListView = {
  /** Fetches the endpoints again and redraws the table. */
  load(): Promise<void>;
};

/** A delay as the table shows it: `250` or `100–400`. */
export const delayText = (delay: Delay): string =>
  typeof delay === 'number' ? String(delay) : `${delay.min}–${delay.max}`;

/** The endpoint table in #list-view, filtered by name as you type. */
export function createListView(): ListView {
  const table = byId<HTMLTableElement>('endpoints');
  const status = byId('status');
  const filter = byId<HTMLInputElement>('filter');
  let endpoints: EndpointSummary[] = [];

  for (const span of document.querySelectorAll('.base')) span.textContent = ROOT.href;

  const cell = (label: string, content: Node | string, title?: string) => {
    const td = el('td', { 'data-label': label }, content);
    if (title) td.title = title;
    return td;
  };

  const render = () => {
    const wanted = filter.value.trim().toLowerCase();
    const shown = endpoints.filter((endpoint) => endpoint.name.toLowerCase().includes(wanted));
    table.tBodies[0]!.replaceChildren(
      ...shown.map((endpoint) =>
        el(
          'tr',
          {},
          cell(
            'Name',
            el(
              'span',
              {},
              el('a', { href: `#endpoint/${encodeURIComponent(endpoint.name)}` }, endpoint.name),
              ...sourceBadge(endpoint.source),
            ),
          ),
          // An older server sends neither: the name is the path, and every method answers.
          cell('Path', el('code', {}, `/${endpoint.path ?? endpoint.name}`)),
          cell('Methods', endpoint.methods?.join(' ') ?? 'all'),
          cell('Status', String(endpoint.statusCode)),
          cell('Delay (ms)', delayText(endpoint.delay)),
          cell('Hits', String(endpoint.hits)),
          cell('Last call', age(endpoint.lastCall), endpoint.lastCall ? new Date(endpoint.lastCall).toLocaleString() : undefined),
        ),
      ),
    );
    table.hidden = shown.length === 0;
    if (endpoints.length === 0) status.textContent = 'No endpoints yet. Add one with "New endpoint".';
    else if (shown.length === 0) status.textContent = `No endpoint name contains "${filter.value.trim()}".`;
    else status.textContent = `${shown.length} of ${endpoints.length} endpoint${endpoints.length === 1 ? '' : 's'}`;
  };

  filter.addEventListener('input', render);

  const load = async () => {
    status.textContent = 'Loading endpoints…';
    try {
      endpoints = await listEndpoints();
      render();
      await showSourceProblems(byId('source-errors'));
    } catch (err) {
      table.hidden = true;
      status.textContent = `Could not load the endpoints: ${(err as Error).message}`;
    }
  };
  byId('refresh').addEventListener('click', load);
  return { load };
}
