/**
 * Which mock endpoints a bin's code calls (docs/bin-api.md, "A sketch with its API"): every path written after
 * `/endpoint/` in its HTML or JavaScript, matched against the endpoints' routes as the mock server matches a
 * request (docs/mock-api.md, "Routing"). `snippetkit save --with-mocks` and the editor's "with mocks" Save both
 * ask this, so they store the same endpoints.
 */

/** One segment of a path in code: written out, filled in by code (`${id}`), or written up to a `+`. */
type Segment = { kind: 'exact' | 'any' | 'prefix'; text: string };

/** A path after `/endpoint/` in code; `open` when code may add segments after it (a trailing `/`, a `+`). */
export type EndpointCall = { text: string; segments: Segment[]; open: boolean };

/** What an endpoint list item (`GET /mocks/api/endpoints`) gives the match: its name and its route. */
export type RoutedEndpoint = { name: string; path: string };

const MARK = '/endpoint/';
/** Distinct calls followed per bin: each is compared with every endpoint. */
const MAX_CALLS = 200;
/** The longest path read after the mark; a route is at most 512 characters. */
const MAX_LENGTH = 600;
/** What ends a path in code: quotes, space, a query or fragment, markup and punctuation around a literal. */
const END = /[\s'"`<>()\\?#,;[\]{}|^]/;

/** Every distinct `/endpoint/…` call in `texts`, at most MAX_CALLS, in the order first seen. */
export function endpointCalls(texts: string[]): EndpointCall[] {
  const calls = new Map<string, EndpointCall>();
  for (const text of texts) {
    for (let at = text.indexOf(MARK); at !== -1 && calls.size < MAX_CALLS; at = text.indexOf(MARK, at + 1)) {
      const call = readCall(text, at + MARK.length);
      if (call && !calls.has(call.text)) calls.set(call.text, call);
    }
  }
  return [...calls.values()];
}

/** The call starting at `start`, or undefined when nothing of it is written out (`'/endpoint/' + path`). */
function readCall(text: string, start: number): EndpointCall | undefined {
  const segments: Segment[] = [];
  let current = { text: '', hole: false };
  let i = start;
  const limit = Math.min(text.length, start + MAX_LENGTH);
  const push = () => segments.push(current.hole ? { kind: 'any', text: '' } : { kind: 'exact', text: current.text });
  while (i < limit) {
    if (text.startsWith('${', i)) {
      const close = text.indexOf('}', i);
      if (close === -1 || close >= limit) return undefined;
      current.hole = true;
      i = close + 1;
      continue;
    }
    const c = text[i]!;
    if (c === '/') {
      push();
      current = { text: '', hole: false };
    } else if (END.test(c)) {
      break;
    } else {
      current.text += c;
    }
    i++;
  }
  // A quote closing the literal and a `+` after it: code adds to the last segment, and maybe more segments.
  const concatenated = /^['"`]\s*\+/.test(text.slice(i, i + 40));
  let open = concatenated;
  if (current.text === '' && !current.hole) open = true; // `/endpoint/users/`: what follows is code's
  else if (concatenated && !current.hole) segments.push({ kind: 'prefix', text: current.text });
  else push();
  const decoded = decodeSegments(segments);
  if (!decoded || !decoded.some((s) => s.kind !== 'any' && s.text !== '')) return undefined;
  if (decoded.some((s) => s.kind === 'exact' && s.text === '')) return undefined; // `a//b` names no route
  return { text: text.slice(start, i), segments: decoded, open };
}

/** Segments percent-decoded as the server decodes a request's; undefined for a broken escape (no route). */
function decodeSegments(segments: Segment[]): Segment[] | undefined {
  try {
    return segments.map((s) => (s.kind === 'any' ? s : { kind: s.kind, text: decodeURIComponent(s.text) }));
  } catch {
    return undefined;
  }
}

/**
 * Whether `call` may reach the route `path` (`users/:id`, `files/*`): a written segment must equal a static
 * one (a `:param` takes any), a segment code fills in may be anything, and the route's segments past the
 * call's must be optional unless code may add more.
 */
export function callReaches(call: EndpointCall, path: string): boolean {
  const parts = path.replace(/^\//, '').replace(/\/$/, '').split('/');
  for (const [i, segment] of call.segments.entries()) {
    const part = parts[i];
    if (part === undefined) return false;
    if (part === '*') return true;
    if (part.startsWith(':') || segment.kind === 'any') continue;
    if (segment.kind === 'exact' ? segment.text !== part : !part.startsWith(segment.text)) return false;
  }
  if (call.open) return true;
  return parts.slice(call.segments.length).every((part) => part === '*' || (part.startsWith(':') && part.endsWith('?')));
}

export type CalledEndpoints = {
  /** The names of the endpoints some call may reach, in the list's order. */
  names: string[];
  /** The calls no endpoint answers, as written. */
  unanswered: string[];
};

/** The endpoints of `endpoints` that the code in `texts` (a bin's HTML and JavaScript) calls. */
export function calledEndpoints(texts: string[], endpoints: RoutedEndpoint[]): CalledEndpoints {
  const calls = endpointCalls(texts);
  const called = new Set<string>();
  const unanswered: string[] = [];
  for (const call of calls) {
    const reached = endpoints.filter((endpoint) => callReaches(call, endpoint.path));
    if (reached.length === 0) unanswered.push(`/endpoint/${call.text}`);
    for (const endpoint of reached) called.add(endpoint.name);
  }
  return { names: endpoints.filter((e) => called.has(e.name)).map((e) => e.name), unanswered };
}
