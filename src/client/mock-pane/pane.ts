import { callPath, fetchCall, type CallPlace } from '../../shared/endpoint-call.js';
import { followHits, listEndpoints, MockApiError, type EndpointItem, type MockServer } from './api.js';

/** What the pane writes into: the JavaScript pane's cursor (the editor's code panes). */
export type CallTarget = {
  insert(make: (place: Omit<CallPlace, 'language'>) => string): void;
  /** The JavaScript pane's preprocessor. */
  language(): string;
};

/** The endpoints drawn at most; the mock page lists them all. */
const MAX_SHOWN = 500;

const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

function element(tag: string, className: string, text = ''): HTMLElement {
  const made = document.createElement(tag);
  made.className = className;
  made.textContent = text;
  return made;
}

const hitsText = (hits: number) => (hits === 1 ? '1 hit' : `${hits} hits`);

/** The URL a bin's page requests for an endpoint: on its own origin, its route with params filled. */
export const callUrl = (server: MockServer, path: string): string => `${server.endpoints.pathname}${callPath(path)}`;

/**
 * The `#pane-mocks` list: each endpoint with its methods, path, status and live hit count; a click puts a
 * call of it at the JavaScript pane's cursor; a link opens it on the mock page. The list and the stream are
 * followed only while the pane is shown (a hidden pane holds no connection). `server` undefined: the note
 * on how to get mocks instead.
 */
export function wireMockList(server: MockServer | undefined, target: CallTarget, readOnly: boolean): { reload(): void } {
  const pane = byId('pane-mocks');
  const list = byId('mock-list');
  const empty = byId('mocks-empty');
  const more = byId('mocks-more');
  const problem = byId('mocks-problem');
  const hint = byId('mocks-hint');
  const counts = new Map<string, HTMLElement>();
  if (!server) {
    byId('mocks-note').hidden = false;
    return { reload() {} };
  }
  byId('make-mock').hidden = false;
  const pageLink = byId<HTMLAnchorElement>('mock-page-link');
  pageLink.href = server.page.href;
  pageLink.hidden = false;

  function row(endpoint: EndpointItem, found: MockServer): HTMLElement {
    const url = callUrl(found, endpoint.path);
    const item = document.createElement('li');
    item.dataset.name = endpoint.name;
    const insert = element('button', 'mock-insert');
    (insert as HTMLButtonElement).type = 'button';
    (insert as HTMLButtonElement).disabled = readOnly;
    insert.title = readOnly ? 'This page follows a bin read-only' : `Insert a call of ${url} at the JavaScript's cursor`;
    const methods = endpoint.methods === null ? 'ANY' : endpoint.methods.join(' ');
    const status = element('span', `mock-status s${String(endpoint.statusCode)[0]}`, String(endpoint.statusCode));
    insert.append(element('span', 'mock-methods', methods), element('span', 'mock-path', `/${endpoint.path}`), status);
    insert.addEventListener('click', () => {
      const toggle = document.querySelector<HTMLButtonElement>('button[data-toggle="javascript"]');
      if (byId('pane-javascript').hidden) toggle?.click();
      target.insert((place) => fetchCall(url, endpoint.methods, { ...place, language: target.language() }));
    });
    const hits = element('span', 'mock-hits', hitsText(endpoint.hits));
    hits.dataset.hits = String(endpoint.hits);
    counts.set(endpoint.name, hits);
    const open = element('a', 'mock-open', '↗') as HTMLAnchorElement;
    open.href = new URL(`#endpoint/${encodeURIComponent(endpoint.name)}`, found.page).href;
    open.target = '_blank';
    open.rel = 'noopener';
    open.title = `Open ${endpoint.name} on the mock page`;
    open.setAttribute('aria-label', open.title);
    item.append(insert, hits, open);
    return item;
  }

  let turn = 0;
  async function load(found: MockServer): Promise<void> {
    const mine = ++turn;
    try {
      const endpoints = await listEndpoints(found);
      if (mine !== turn) return;
      counts.clear();
      list.replaceChildren(...endpoints.slice(0, MAX_SHOWN).map((endpoint) => row(endpoint, found)));
      empty.hidden = endpoints.length > 0;
      hint.hidden = endpoints.length === 0;
      more.hidden = endpoints.length <= MAX_SHOWN;
      more.textContent = `and ${endpoints.length - MAX_SHOWN} more on the mock page`;
      problem.hidden = true;
    } catch (error) {
      if (mine !== turn) return;
      problem.textContent = `The endpoints could not be listed: ${error instanceof MockApiError ? error.message : String(error)}.`;
      problem.hidden = false;
    }
  }

  let stop: (() => void) | undefined;
  const follow = () => {
    if (pane.hidden && stop) {
      stop();
      stop = undefined;
    } else if (!pane.hidden && !stop) {
      stop = followHits(server, {
        stale: () => void load(server),
        called(hits) {
          for (const { name, hits: count } of hits) {
            const shown = counts.get(name);
            if (!shown) continue;
            shown.textContent = hitsText(count);
            shown.dataset.hits = String(count);
          }
        },
      });
    }
  };
  new MutationObserver(follow).observe(pane, { attributes: true, attributeFilter: ['hidden'] });
  follow();
  return { reload: () => void (pane.hidden || load(server)) };
}
