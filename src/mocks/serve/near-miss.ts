/**
 * The endpoints closest to a request none answered (a 404 or 405), and what differed: WireMock's
 * "near misses", for the page's unmatched log. Compared segment by segment against each endpoint's
 * pattern: a parameter takes any segment, `*` the rest; a literal one letter or two off (`user`
 * for `users`) is half a miss, another literal or a segment too many or too few a whole one, and so
 * is a method the endpoint does not take. Only endpoints within MAX_MISSES are kept.
 */

/** What the scorer needs of an endpoint. */
export type Candidate = { name: string; pattern: string; methods: readonly string[] | undefined };

export type NearMiss = { name: string; path: string; methods: string[] | null; differences: string[] };

/** More than this many misses is not near. */
const MAX_MISSES = 2;
const SHOWN = 3;

type Scored = NearMiss & { misses: number };

/**
 * The closest `SHOWN` candidates to `method` on `path` (after /endpoint/, undecoded, no query),
 * closest first; none when every one differs in more than MAX_MISSES ways or in every segment.
 */
export function nearMisses(method: string, path: string, candidates: Iterable<Candidate>): NearMiss[] {
  const segments = splitPath(path);
  const scored: Scored[] = [];
  for (const candidate of candidates) {
    const found = compare(method, segments, candidate);
    if (found) scored.push(found);
  }
  scored.sort((a, b) => a.misses - b.misses || (a.name < b.name ? -1 : 1));
  return scored.slice(0, SHOWN).map(({ misses: _, ...miss }) => miss);
}

function splitPath(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

function compare(method: string, segments: string[], candidate: Candidate): Scored | undefined {
  const pattern = candidate.pattern.split('/').filter((segment) => segment !== '');
  const differences: string[] = [];
  let misses = 0;
  // Literal segments that match, and those one letter or two off: a path with neither shares nothing with the pattern.
  let matched = 0;
  let typos = 0;
  let at = 0;
  for (; at < pattern.length; at++) {
    const wanted = pattern[at]!;
    if (wanted === '*') {
      at = segments.length;
      break;
    }
    const given = segments[at];
    const optional = wanted.startsWith(':') && wanted.endsWith('?');
    if (given === undefined) {
      if (optional) continue;
      misses++;
      differences.push(`the path ends before ${wanted}`);
      continue;
    }
    // A parameter takes anything, so it is no sign that the request meant this endpoint.
    if (wanted.startsWith(':')) continue;
    if (wanted === given) {
      matched++;
      continue;
    }
    const typo = nearlyEqual(wanted, given);
    if (typo) typos++;
    misses += typo ? 0.5 : 1;
    differences.push(`'${given}' where it has '${wanted}'`);
    if (misses > MAX_MISSES) return undefined;
  }
  const extra = segments.length - at;
  if (extra > 0) {
    misses += extra;
    differences.push(`${extra} segment${extra === 1 ? '' : 's'} more than it has`);
  }
  const methods = candidate.methods;
  const upper = method.toUpperCase();
  if (methods && !methods.includes(upper) && !(upper === 'HEAD' && methods.includes('GET'))) {
    misses++;
    differences.push(`it takes ${methods.join(', ')}, not ${upper}`);
  }
  // A path sharing no segment with the pattern is not near, whatever the method.
  if (misses > MAX_MISSES || (matched === 0 && typos === 0)) return undefined;
  return { name: candidate.name, path: candidate.pattern, methods: methods ? [...methods] : null, differences, misses };
}

/** One letter added, dropped, changed or swapped with its neighbour, or two for words of six letters or more; case aside. */
function nearlyEqual(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return true;
  const allowed = Math.min(x.length, y.length) >= 6 ? 2 : 1;
  if (Math.abs(x.length - y.length) > allowed) return false;
  return distance(x, y, allowed) <= allowed;
}

/** Edit distance counting a swap of two neighbours as one edit (`usres`), given up past `limit` (then limit + 1). */
function distance(a: string, b: string, limit: number): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      row[j] = value;
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}
