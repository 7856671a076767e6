import { listEndpoints, ROOT, type Delay, type EndpointSummary, type ServerSummary } from './common/api.js';
import { showSourceProblems, sourceBadge } from './source-badge.js';
import { age, byId, el } from './common/dom.js';

export type ListView = {
  /** Fetches the endpoints again and redraws the sidebar and the overview. */
  load(): Promise<void>;
  /** New hit counts and last calls from the server-wide stream, without asking again. */
  update(called: ServerSummary['endpoints']): void;
  /** Marks the open endpoint in the sidebar (undefined: none). */
  select(name: string | undefined): void;
};

/** A delay as the table shows it: `250` or `100–400`. */
export const delayText = (delay: Delay): string =>
  typeof delay === 'number' ? String(delay) : `${delay.min}–${delay.max}`;

const hitsText = (hits: number) => `${hits} hit${hits === 1 ? '' : 's'}`;

const KIND_BADGES = { graphql: 'GQL', websocket: 'WS', sse: 'SSE' } as const;

/** Method badges: `GET POST`, or `ALL` for an endpoint that takes every method; the kind for another than REST. */
function verbs(endpoint: EndpointSummary): HTMLElement[] {
  if (endpoint.kind) return [el('span', { class: `verb kind ${endpoint.kind}`, title: endpoint.kind }, KIND_BADGES[endpoint.kind])];
  return (endpoint.methods ?? ['ALL']).map((method) => el('span', { class: `verb ${method.toLowerCase()}` }, method));
}

/** A WebSocket or event stream answers with its script, not a status. */
const statusText = (endpoint: EndpointSummary) =>
  endpoint.kind === 'websocket' || endpoint.kind === 'sse' ? '' : `${endpoint.statusCode} · `;

/**
 * The endpoints: the sidebar's list (always there, the open one marked) and the overview table of
 * #list-view, both filtered by name or path as you type and kept live by the server-wide stream.
 */
export function createListView(): ListView {
  const table = byId<HTMLTableElement>('endpoints');
  const list = byId<HTMLUListElement>('endpoint-list');
  const status = byId('status');
  const filter = byId<HTMLInputElement>('filter');
  let endpoints: EndpointSummary[] = [];
  let selected: string | undefined;

  for (const span of document.querySelectorAll('.base')) span.textContent = ROOT.href;

  const cell = (label: string, content: Node | string, title?: string) => {
    const td = el('td', { 'data-label': label }, content);
    if (title) td.title = title;
    return td;
  };
  const lastCallTitle = (endpoint: EndpointSummary) =>
    endpoint.lastCall ? new Date(endpoint.lastCall).toLocaleString() : undefined;
  const href = (endpoint: EndpointSummary) => `#endpoint/${encodeURIComponent(endpoint.name)}`;

  const sidebarItem = (endpoint: EndpointSummary) => {
    const link = el(
      'a',
      { href: href(endpoint), 'data-name': endpoint.name },
      ...verbs(endpoint),
      el('span', { class: 'name' }, endpoint.name),
      ...sourceBadge(endpoint.source),
      // An older server sends no path: the name is the path.
      el('span', { class: 'route' }, `/${endpoint.path ?? endpoint.name}`),
      el('span', { class: 'stats' }, `${statusText(endpoint)}${hitsText(endpoint.hits)} · ${age(endpoint.lastCall)}`),
    );
    if (endpoint.name === selected) link.setAttribute('aria-current', 'page');
    const title = lastCallTitle(endpoint);
    if (title) link.title = `last call ${title}`;
    return el('li', {}, link);
  };

  const tableRow = (endpoint: EndpointSummary) =>
    el(
      'tr',
      {},
      cell('Name', el('span', {}, el('a', { href: href(endpoint) }, endpoint.name), ...sourceBadge(endpoint.source))),
      cell('Path', el('code', {}, `/${endpoint.path ?? endpoint.name}`)),
      cell('Methods', endpoint.kind ? KIND_BADGES[endpoint.kind] : (endpoint.methods?.join(' ') ?? 'all')),
      cell('Status', statusText(endpoint).replace(' · ', '') || '–'),
      cell('Delay (ms)', delayText(endpoint.delay)),
      cell('Hits', String(endpoint.hits)),
      cell('Last call', age(endpoint.lastCall), lastCallTitle(endpoint)),
    );

  const render = () => {
    const wanted = filter.value.trim().toLowerCase();
    const shown = endpoints.filter(
      (endpoint) => endpoint.name.toLowerCase().includes(wanted) || (endpoint.path ?? '').toLowerCase().includes(wanted),
    );
    list.replaceChildren(...shown.map(sidebarItem));
    table.tBodies[0]!.replaceChildren(...shown.map(tableRow));
    table.hidden = shown.length === 0;
    byId('overview-empty').hidden = endpoints.length > 0;
    if (endpoints.length === 0) status.textContent = 'No endpoints yet.';
    else if (shown.length === 0) status.textContent = `None matches "${filter.value.trim()}".`;
    else status.textContent = `${shown.length} of ${endpoints.length} endpoint${endpoints.length === 1 ? '' : 's'}`;
  };

  filter.addEventListener('input', render);
  // "3 s ago" grows old on its own; redrawn while the page is looked at.
  setInterval(() => document.visibilityState === 'visible' && render(), 10_000);

  let loading: Promise<void> | undefined;
  let again = false;
  const fetchAll = async () => {
    try {
      endpoints = await listEndpoints();
      render();
      await showSourceProblems(byId('source-errors'));
    } catch (err) {
      table.hidden = true;
      status.textContent = `Could not load the endpoints: ${(err as Error).message}`;
    }
  };
  // One load at a time: a burst of changes while one runs makes one more, not one each.
  const load = (): Promise<void> => {
    if (loading) {
      again = true;
      return loading;
    }
    loading = fetchAll().finally(() => {
      loading = undefined;
      if (again) {
        again = false;
        void load();
      }
    });
    return loading;
  };

  return {
    load,
    update(called) {
      let changed = false;
      for (const { name, hits, lastCall } of called) {
        const endpoint = endpoints.find((one) => one.name === name);
        if (!endpoint) continue;
        endpoint.hits = hits;
        endpoint.lastCall = lastCall;
        changed = true;
      }
      if (changed) render();
    },
    select(name) {
      selected = name;
      for (const link of list.querySelectorAll('a')) {
        if (link.dataset.name === name) link.setAttribute('aria-current', 'page');
        else link.removeAttribute('aria-current');
      }
    },
  };
}
