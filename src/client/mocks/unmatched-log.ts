import { clearUnmatched, listUnmatched, type UnmatchedRequest } from './common/api.js';
import { byId, el } from './common/dom.js';
import { requestDetails } from './live-log.js';

/** What "Make endpoint" starts the new endpoint's form with. */
export type Draft = { name: string; path: string; method: string; data: unknown };

export type UnmatchedLog = {
  /** Fetches the log again (with near misses) and redraws it. */
  load(): Promise<void>;
  /** The server's count moved: loads again, at most one load at a time. */
  changed(): void;
};

const MIN_INTERVAL_MS = 1000;

// A segment that names one item (`7`, a UUID) becomes a parameter in a draft's path.
const ITEM = /^(\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** A new endpoint for a request none answered: its path (items as `:id`), its method, its JSON body as the data. */
export function draftFrom(request: UnmatchedRequest): Draft {
  const path = request.url.replace(/^\/endpoint\//, '').split('?')[0]!.replace(/\/+$/, '');
  const segments = path.split('/').filter(Boolean);
  let ids = 0;
  const pattern = segments.map((segment) => (ITEM.test(segment) ? (ids++ === 0 ? ':id' : `:id${ids}`) : segment));
  const words = segments.filter((segment) => !ITEM.test(segment));
  const name = (words.join('-') || 'endpoint').replace(/[^A-Za-z0-9._~-]/g, '-').slice(0, 60);
  let data: unknown = {};
  try {
    if (request.body.trim() !== '') data = JSON.parse(request.body);
  } catch {
    // not JSON: the answer starts empty
  }
  return { name, path: pattern.join('/'), method: request.method, data };
}

function nearText(request: UnmatchedRequest, near: number): string {
  // null: the server had no time left for it in this answer; the next has.
  if (request.nearMisses === null) return 'Closest endpoints: not worked out yet.';
  return near > 0 ? 'Closest endpoints:' : 'No endpoint is close.';
}

/**
 * The server's unmatched log in #unmatched: each request with the endpoints closest to it (links),
 * what differed, and a button that makes an endpoint from it.
 */
export function createUnmatchedLog(make: (draft: Draft) => void): UnmatchedLog {
  const list = byId<HTMLOListElement>('unmatched-requests');
  const empty = byId('unmatched-empty');
  const count = byId('unmatched-count');
  const state = byId('unmatched-state');
  let shown = 0;

  const entry = (request: UnmatchedRequest) => {
    const near = (request.nearMisses ?? []).map((miss) =>
      el(
        'li',
        {},
        el('a', { href: `#endpoint/${encodeURIComponent(miss.name)}` }, miss.name),
        ' ',
        el('code', {}, `/${miss.path}`),
        el('span', { class: 'why' }, `: ${miss.differences.join('; ') || 'the same path'}`),
      ),
    );
    const makeButton = el('button', { type: 'button', class: 'small make' }, 'Make endpoint');
    makeButton.addEventListener('click', () => make(draftFrom(request)));
    const details = requestDetails(request, el('span', { class: 'status' }, String(request.status ?? '')));
    return el(
      'li',
      { class: 'request unmatched-entry' },
      details,
      el('p', { class: 'hint' }, nearText(request, near.length)),
      ...(near.length > 0 ? [el('ul', { class: 'near' }, ...near)] : []),
      makeButton,
    );
  };

  const showCount = (n: number) => {
    count.textContent = String(n);
    count.classList.toggle('zero', n === 0);
  };

  let loading: Promise<void> | undefined;
  let again = false;
  const fetchAll = async () => {
    try {
      const { requests } = await listUnmatched();
      shown = requests.length;
      list.replaceChildren(...requests.map(entry));
      empty.hidden = shown > 0;
      showCount(shown);
      state.textContent = '';
    } catch (err) {
      state.textContent = `could not load: ${(err as Error).message}`;
    }
  };
  // One load at a time, and during a flood one a second: each brings up to --log-size bodies of 64 KiB.
  const load = (): Promise<void> => {
    if (loading) {
      again = true;
      return loading;
    }
    const started = Date.now();
    loading = fetchAll().finally(() => {
      setTimeout(() => {
        loading = undefined;
        if (again) {
          again = false;
          void load();
        }
      }, Math.max(0, MIN_INTERVAL_MS - (Date.now() - started)));
    });
    return loading;
  };

  byId('clear-unmatched').addEventListener('click', async () => {
    try {
      await clearUnmatched();
    } catch (err) {
      state.textContent = `could not clear: ${(err as Error).message}`;
    }
    await fetchAll();
  });

  return { load, changed: () => void load() };
}
