import { endpointUrl, METHODS, type EndpointRecord } from './common/api.js';
import { byId, el, headerList, pretty } from './common/dom.js';
import { createKeyValueRows } from './common/key-value-rows.js';
import { fillPath, parsePath, type PathSegment } from './path-params.js';

/** The call the panel is set up to make, path parameters left empty given an example (as `curl()` does). */
export type TryCall = {
  method: string;
  segments: PathSegment[];
  /** Each path parameter's value, by name. */
  values: Map<string, string>;
  query: [string, string][];
  headers: [string, string][];
  /** With the methods that carry one, when the box holds any. */
  body?: string;
};

export type TryIt = {
  /** Points the panel at `record`: its methods, one input per path parameter; clears the last result. */
  show(record: EndpointRecord): void;
  /** The call the panel would make, as a curl command (path parameters left empty get an example). */
  curl(): string;
  /** The same call, as data ("Try it in a bin" writes it as a bin's code). */
  call(): TryCall;
};

/** A shell word: single quotes, with any single quote closed, escaped and reopened. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** What a copied curl puts in a path parameter left empty: `1` for an id, else its name, either of which matches. */
const example = (name: string) => (/id$/i.test(name) ? '1' : name === '*' ? '' : name);

// fetch refuses a body with these.
const NO_BODY = new Set(['GET', 'HEAD']);

/** The "Try it" panel: calls the endpoint from the browser and shows status, time, headers and body. */
export function createTryIt(): TryIt {
  const method = byId<HTMLSelectElement>('try-method');
  const url = byId('try-url');
  const paramsBox = byId('try-params');
  const body = byId<HTMLTextAreaElement>('try-body');
  const button = byId<HTMLButtonElement>('try');
  const result = byId('try-result');
  const query = createKeyValueRows({
    legend: 'Query', noun: 'query parameter', field: 'try.query', namePlaceholder: 'page', addId: 'try-add-query',
  });
  byId('try-query-slot').append(query.element);
  const headers = createKeyValueRows({
    legend: 'Request headers', noun: 'request header', field: 'try.headers', namePlaceholder: 'Authorization',
    addId: 'try-add-header',
  });
  byId('try-headers-slot').append(headers.element);
  let segments: PathSegment[] = [];
  const params = new Map<string, HTMLInputElement>();

  const valuesOf = (fill: boolean) =>
    new Map([...params].map(([name, input]) => [name, input.value.trim() || (fill ? example(name) : '')]));
  const target = (fill = false) => {
    const values = valuesOf(fill);
    const search = new URLSearchParams(query.pairs()).toString();
    return endpointUrl(fillPath(segments, values)) + (search ? `?${search}` : '');
  };
  const showTarget = () => (url.textContent = `${method.value} ${target()}`);
  const showBody = () => (body.hidden = NO_BODY.has(method.value));
  method.addEventListener('change', () => {
    showBody();
    showTarget();
  });
  // Typing in any row or parameter box changes the URL shown.
  byId('try-it').addEventListener('input', showTarget);
  byId('try-it').addEventListener('click', showTarget);

  /** The body the chosen method may carry, with the headers to send beside it (a Content-Type unless one is named). */
  const bodyOf = () => {
    if (NO_BODY.has(method.value) || body.value.trim() === '') return undefined;
    const named = headers.pairs().some(([name]) => name.toLowerCase() === 'content-type');
    const pairs: [string, string][] = named ? headers.pairs() : [...headers.pairs(), ['content-type', contentType(body.value)]];
    return { text: body.value, headers: pairs };
  };

  const report = (status: string, took: number, pairs: Iterable<[string, string]>, text: string) => {
    byId('try-status').textContent = status;
    byId('try-time').textContent = `${Math.round(took)} ms`;
    byId('try-headers').replaceChildren(headerList(pairs));
    byId('try-response').textContent = text;
    result.hidden = false;
  };
  // The call under way: pressing the button again cancels it, as a "hang" fault never answers.
  let pending: AbortController | undefined;
  const settle = () => {
    pending = undefined;
    button.textContent = 'Try it';
  };

  button.addEventListener('click', async () => {
    if (pending) return pending.abort();
    const call = (pending = new AbortController());
    button.textContent = 'Cancel';
    const started = performance.now();
    const { signal } = call;
    const init: RequestInit = { method: method.value, headers: headers.pairs(), cache: 'no-store', signal };
    const sent = bodyOf();
    if (sent) {
      init.body = sent.text;
      init.headers = sent.headers;
    }
    try {
      const res = await fetch(target(), init);
      const text = await res.text();
      // Time to the last byte, as a client would wait for it (the endpoint's delay included).
      const took = performance.now() - started;
      const status = `${res.status} ${res.statusText}`.trim();
      if (pending === call) report(status, took, res.headers.entries(), pretty(text));
    } catch (err) {
      // A fault (reset, empty, malformed) reaches the page as a failed fetch.
      const why = signal.aborted
        ? 'Cancelled before an answer came'
        : `The call failed: ${(err as Error).message}`;
      if (pending === call) report(why, performance.now() - started, [], '');
    } finally {
      if (pending === call) settle();
    }
  });

  return {
    show(record) {
      // A call still under way was to the endpoint shown before: it ends without a word.
      pending?.abort();
      settle();
      segments = parsePath(record.path ?? record.name);
      params.clear();
      paramsBox.replaceChildren();
      for (const segment of segments) {
        if (segment.kind === 'static') continue;
        const id = `try-param-${segment.kind === 'rest' ? 'rest' : segment.name}`;
        const input = el('input', { id, spellcheck: 'false', autocomplete: 'off' });
        let label = segment.kind === 'rest' ? '* (the rest of the path)' : `:${segment.name}`;
        if (segment.kind === 'param' && segment.optional) label += ' (optional)';
        paramsBox.append(el('label', {}, label, input));
        params.set(segment.name, input);
      }
      // A GraphQL endpoint is called with a query: POST first, a query every schema answers to start from.
      const graphql = record.kind === 'graphql';
      method.replaceChildren(...(graphql ? ['POST', 'GET'] : (record.methods ?? METHODS)).map((one) => el('option', {}, one)));
      if (graphql) body.value = '{ "query": "{ __typename }" }';
      query.fill([]);
      headers.fill([]);
      showBody();
      showTarget();
      result.hidden = true;
    },
    curl() {
      const words = ['curl -i'];
      if (method.value !== 'GET') words.push(`-X ${method.value}`);
      words.push(quote(target(true)));
      const sent = bodyOf();
      for (const [name, value] of sent?.headers ?? headers.pairs()) words.push(`-H ${quote(`${name}: ${value}`)}`);
      if (sent) words.push(`--data-raw ${quote(sent.text)}`);
      return words.join(' ');
    },
    call() {
      const sent = bodyOf();
      const headerPairs = sent?.headers ?? headers.pairs();
      return { method: method.value, segments, values: valuesOf(true), query: query.pairs(), headers: headerPairs, body: sent?.text };
    },
  };
}

/** JSON when the text parses as JSON, as most APIs take; plain text otherwise. */
function contentType(text: string): string {
  try {
    JSON.parse(text);
    return 'application/json';
  } catch {
    return 'text/plain;charset=UTF-8';
  }
}
