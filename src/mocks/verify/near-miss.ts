/**
 * The endpoints closest to a request none answered (a 404 or 405), and what differed: WireMock's
 * "near misses", for the page's unmatched log. Compared segment by segment against each endpoint's
 * pattern: a parameter takes any segment, `*` the rest; a literal one edit off (`user` for
 * `users`, `usres`) is half a miss, another literal or a segment too many or too few a whole one, and
 * so is a method the endpoint does not take. Only endpoints within MAX_MISSES are kept.
 */

/** What the scorer needs of an endpoint. */
export type Candidate = { name: string; pattern: string; methods: readonly string[] | undefined };

export type NearMiss = { name: string; path: string; methods: string[] | null; differences: string[] };

/** More than this many misses is not near. */
const MAX_MISSES = 2;
const SHOWN = 3;

type Scored = NearMiss & { misses: number };

/** A candidate with its pattern split once, for comparing with many requests. */
type Prepared = Candidate & { segments: string[] };

/** Splits every candidate's pattern once: `find` then compares a request with each, allocating nothing per pair. */
export class NearMissFinder {
  private readonly prepared: Prepared[];

  constructor(candidates: Iterable<Candidate>) {
    this.prepared = [...candidates].map((candidate) => ({
      ...candidate,
      segments: candidate.pattern.split('/').filter((segment) => segment !== ''),
    }));
  }

  /**
   * The closest `SHOWN` candidates to `method` on `path` (after /endpoint/, undecoded, no query),
   * closest first; none when every one differs in more than MAX_MISSES ways or in every segment.
   */
  find(method: string, path: string): NearMiss[] {
    const segments = splitPath(path);
    const scored: Scored[] = [];
    for (const candidate of this.prepared) {
      const found = compare(method, segments, candidate);
      if (found) scored.push(found);
    }
    scored.sort((a, b) => a.misses - b.misses || (a.name < b.name ? -1 : 1));
    return scored.slice(0, SHOWN).map(({ misses: _, ...miss }) => miss);
  }
}

/** One request against `candidates`; NearMissFinder for many. */
export function nearMisses(method: string, path: string, candidates: Iterable<Candidate>): NearMiss[] {
  return new NearMissFinder(candidates).find(method, path);
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

/**
 * How far `segments` are from the candidate: undefined when not near. Run twice for the few that
 * are: first counting only (`explain` false, nothing allocated for the many that are not near), then
 * saying what differed.
 */
function compare(method: string, segments: string[], candidate: Prepared, explain = false): Scored | undefined {
  const pattern = candidate.segments;
  const differences: string[] = [];
  const differ = (text: () => string) => explain && differences.push(text());
  let misses = 0;
  // Literal segments that match, and those one edit off: a path with neither shares nothing with the pattern.
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
      differ(() => `the path ends before ${wanted}`);
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
    differ(() => `'${given}' where it has '${wanted}'`);
    if (misses > MAX_MISSES) return undefined;
  }
  const extra = segments.length - at;
  if (extra > 0) {
    misses += extra;
    differ(() => `${extra} segment${extra === 1 ? '' : 's'} more than it has`);
  }
  const methods = candidate.methods;
  const upper = method.toUpperCase();
  if (methods && !methods.includes(upper) && !(upper === 'HEAD' && methods.includes('GET'))) {
    misses++;
    differ(() => `it takes ${methods.join(', ')}, not ${upper}`);
  }
  // A path sharing no segment with the pattern is not near, whatever the method.
  if (misses > MAX_MISSES || (matched === 0 && typos === 0)) return undefined;
  if (!explain) return compare(method, segments, candidate, true);
  return { name: candidate.name, path: candidate.pattern, methods: methods ? [...methods] : null, differences, misses };
}

/** One letter added, dropped, changed or swapped with its neighbour, case aside; compared in place, nothing allocated. */
function nearlyEqual(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  const same = (x: number, y: number) => x === y || ((x | 32) === (y | 32) && (x | 32) >= 97 && (x | 32) <= 122);
  const at = (text: string, index: number) => text.charCodeAt(index);
  let start = 0;
  while (start < a.length && start < b.length && same(at(a, start), at(b, start))) start++;
  if (start === a.length && start === b.length) return true;
  // The rest of `a` from `i` equals the rest of `b` from `j`.
  const restSame = (i: number, j: number) => {
    if (a.length - i !== b.length - j) return false;
    for (; i < a.length; i++, j++) if (!same(at(a, i), at(b, j))) return false;
    return true;
  };
  if (a.length > b.length) return restSame(start + 1, start);
  if (b.length > a.length) return restSame(start, start + 1);
  if (restSame(start + 1, start + 1)) return true;
  return (
    start + 1 < a.length &&
    same(at(a, start), at(b, start + 1)) &&
    same(at(a, start + 1), at(b, start)) &&
    restSame(start + 2, start + 2)
  );
}
