import { responseNumber } from '../../shared/response-label.js';
import { eventsUrl, type LoggedRequest } from './common/api.js';
import { byId, clock, el, headerList, pretty } from './common/dom.js';
import { fromBin, type RecentBins } from './bin-calls.js';

// The server keeps this many per endpoint; the page shows no more.
const SHOWN = 100;

/** Which answer a request got: `#2` (responses[1]) or `default`, then the status sent or the fault. */
function answered(request: LoggedRequest): string {
  const { socket } = request;
  if (socket) return `connection ${socket.connection || 'all'} ${socket.event}${socket.code === undefined ? '' : ` ${socket.code}`}`;
  // An older server logs neither; say nothing rather than guess.
  if (request.response === undefined && request.status === undefined && request.fault === undefined) return '';
  const by = request.response === null || request.response === undefined ? 'default' : responseNumber(request.response);
  const outcome = request.fault ? `fault: ${request.fault}` : request.status == null ? '' : String(request.status);
  return outcome ? `${by} → ${outcome}` : by;
}

/**
 * One logged request as a collapsible entry: method, path, time and `tail` (which answer it got, or
 * its status) in the line, then the bin that made it; inside, a link to that bin's editor, headers and
 * body. The unmatched log shows its requests the same way.
 */
export function requestDetails(request: LoggedRequest, tail: HTMLElement): HTMLDetailsElement {
  const from = fromBin(request);
  const headers = Object.entries(request.headers).map(
    ([name, value]): [string, string] => [name, Array.isArray(value) ? value.join(', ') : value],
  );
  const details = el(
    'details',
    {},
    el(
      'summary',
      {},
      el('span', { class: 'method' }, request.method),
      ' ',
      el('span', { class: 'url' }, request.url),
      ...(request.operationName === undefined ? [] : [' ', el('span', { class: 'operation' }, request.operationName)]),
      ' ',
      el('time', { datetime: request.time }, clock(request.time)),
      ' ',
      tail,
      ...(from ? [from.line] : []),
    ),
    ...(from?.link ? [from.link] : []),
    el('h4', {}, 'Headers'),
    headerList(headers),
  );
  if (request.body !== '') {
    details.append(el('h4', {}, request.bodyTruncated ? 'Body (first 64 KiB)' : 'Body'), el('pre', {}, pretty(request.body)));
  }
  if (request.callbacks?.length) details.append(el('h4', {}, 'Callbacks'), callbackList(request.callbacks));
  return details;
}

/** Each callback the answer sent: method and URL, then its status and time, its error, or that it is on its way. */
function callbackList(callbacks: NonNullable<LoggedRequest['callbacks']>): HTMLUListElement {
  return el(
    'ul',
    { class: 'callbacks' },
    ...callbacks.map(({ method, url, status, ms, error }) => {
      const outcome =
        error !== undefined
          ? el('span', { class: 'callback-error' }, error)
          : status !== undefined
            ? el('span', { class: status < 400 ? 'callback-ok' : 'callback-error' }, `${status} in ${ms} ms`)
            : el('span', { class: 'callback-waiting' }, 'on its way…');
      return el('li', {}, el('span', { class: 'method' }, method), ' ', el('span', { class: 'url' }, url), ' → ', outcome);
    }),
  );
}

/** Which row shows a request, to redraw it when its callbacks end: its time, method and URL. */
function rowKey(request: LoggedRequest): string {
  return `${request.time} ${request.method} ${request.url}`;
}

/** An endpoint's request, saying which answer it got; open by the page until the user toggles it. */
function entry(request: LoggedRequest): HTMLLIElement {
  const answer = el('span', { class: request.fault ? 'answer fault' : 'answer' }, answered(request));
  const n = request.callbacks?.length ?? 0;
  const calls = n > 0 ? [el('span', { class: 'calls' }, `↪ ${n} callback${n === 1 ? '' : 's'}`)] : [];
  const details = requestDetails(request, el('span', {}, answer, ...calls));
  // Open by the page (the newest) until the user toggles it: then it is theirs to keep open or shut.
  details.querySelector('summary')!.addEventListener('click', () => delete details.dataset.auto);
  const row = el('li', { class: 'request' }, details);
  if (request.callbacks) row.dataset.key = rowKey(request);
  return row;
}

/**
 * A request's callbacks moved on: its row is drawn again, open or shut as it was. Two requests of
 * the same time, method and URL with callbacks would share a key; the newer row is redrawn then.
 */
function redraw(list: HTMLOListElement, request: LoggedRequest): void {
  const key = rowKey(request);
  const old = [...list.querySelectorAll<HTMLLIElement>('li[data-key]')].find((row) => row.dataset.key === key);
  if (!old) return;
  const was = old.querySelector('details')!;
  const row = entry(request);
  const now = row.querySelector('details')!;
  now.open = was.open;
  if (was.dataset.auto !== undefined) now.dataset.auto = '';
  old.replaceWith(row);
}

/**
 * Opens the newest entry, as request inspectors do, so its body shows without a click; the one
 * the page opened before closes, unless the user has clicked it since.
 */
function openNewest(list: HTMLOListElement): void {
  for (const opened of list.querySelectorAll<HTMLDetailsElement>('details[data-auto]')) {
    opened.open = false;
    delete opened.dataset.auto;
  }
  const newest = list.querySelector('details');
  if (!newest) return;
  newest.open = true;
  newest.dataset.auto = '';
}

/**
 * Follows `name`'s request log over Server-Sent Events until the returned stop is called. The
 * first event is the whole log, so a reconnect after a dropped connection redraws it without gaps.
 * `bins` hears of every request, to name the bins that called.
 */
export function followLog(name: string, bins: RecentBins): () => void {
  const list = byId<HTMLOListElement>('requests');
  const state = byId('log-state');
  const empty = byId('log-empty');
  const source = new EventSource(eventsUrl(name));
  const showEmpty = () => (empty.hidden = list.childElementCount > 0);
  list.replaceChildren();
  state.textContent = 'connecting…';

  source.addEventListener('open', () => (state.textContent = 'live'));
  source.addEventListener('error', () => {
    // EventSource retries by itself unless the server refused (a 404 once the endpoint is gone).
    state.textContent = source.readyState === EventSource.CLOSED ? 'not following' : 'reconnecting…';
  });
  source.addEventListener('log', (event) => {
    const requests = JSON.parse((event as MessageEvent<string>).data) as LoggedRequest[];
    list.replaceChildren(...requests.slice(0, SHOWN).map(entry));
    bins.reset(requests);
    openNewest(list);
    showEmpty();
  });
  source.addEventListener('request', (event) => {
    const request = JSON.parse((event as MessageEvent<string>).data) as LoggedRequest;
    list.prepend(entry(request));
    bins.add(request);
    while (list.childElementCount > SHOWN) list.lastElementChild!.remove();
    openNewest(list);
    showEmpty();
  });
  source.addEventListener('callbacks', (event) => redraw(list, JSON.parse((event as MessageEvent<string>).data) as LoggedRequest));
  return () => source.close();
}
