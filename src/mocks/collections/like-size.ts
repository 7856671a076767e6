/**
 * How big a `_like` pattern's RE2 program would be, read from the pattern's text before anything is
 * compiled: re2js has no option to cap a program, and a 254-character pattern (`[^\n]{1000}` 25
 * times) compiles to 23,000 instructions, which cost 0.2 s to compile and seconds per 30 KB field.
 */

/** Longest `_like` pattern, in characters. */
export const MAX_LIKE = 256;
/**
 * Most instructions of a `_like` program: a 256-character literal needs about 260, `.{0,500}` about
 * 1,000. Matching cost 0.1 to 400 ns per instruction per character of text, measured: compiling and
 * memory are what this bounds; the time is the CPU budget's.
 */
export const MAX_LIKE_PROGRAM = 1000;

/**
 * An upper bound of the instructions RE2 compiles `pattern` to (its Parser.calcSize rules, plus the
 * few every program has). Only sizes are computed; the syntax is checked when it compiles.
 */
export function estimateProgramSize(pattern: string): number {
  let at = 0;
  const peek = () => pattern[at];

  // alternation: the branches, and one instruction per `|`
  const alternation = (): number => {
    let size = sequence();
    while (peek() === '|') {
      at++;
      size += sequence() + 1;
    }
    return size;
  };
  const sequence = (): number => {
    let size = 0;
    while (at < pattern.length && peek() !== '|' && peek() !== ')') size += repeated(atom());
    return size;
  };
  const repeated = (sub: number): number => {
    let size = sub;
    for (;;) {
      const c = peek();
      if (c === '*') size += 2;
      else if (c === '+' || c === '?') size += 1;
      else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
        if (!m) return size;
        const min = Number(m[1]);
        const max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
        size = max === -1 ? size * Math.max(min, 1) + 2 : size * Math.max(max, 1) + Math.max(max - min, 0);
        at += m[0].length;
        continue;
      } else return size;
      at++;
      // `*?`, `+?`, `??`: the lazy form is the same size.
      if (peek() === '?') at++;
    }
  };
  const atom = (): number => {
    const c = pattern[at++];
    if (c === '(') return group();
    if (c === '[') return charClass();
    if (c === '\\') return escape();
    return 1;
  };
  const group = (): number => {
    let capture = true;
    if (peek() === '?') {
      // (?:…), (?i:…), (?P<name>…), (?<name>…), or flags alone: (?i)
      const m = /^\?(P?<[^>]*>|[a-zA-Z-]*)(:|\))?/.exec(pattern.slice(at));
      at += m?.[0].length ?? 1;
      if (m?.[2] === ')') return 0;
      capture = m?.[1]?.includes('<') ?? false;
    }
    const inner = alternation();
    if (peek() === ')') at++;
    return inner + (capture ? 2 : 0);
  };
  const charClass = (): number => {
    if (peek() === '^') at++;
    // A `]` first is a member, not the end.
    if (peek() === ']') at++;
    while (at < pattern.length && peek() !== ']') {
      if (pattern.startsWith('[:', at)) {
        const end = pattern.indexOf(':]', at + 2);
        at = end === -1 ? at + 1 : end + 2;
      } else if (peek() === '\\') {
        at++;
        escape();
      } else at++;
    }
    at++;
    return 1;
  };
  const escape = (): number => {
    const c = pattern[at++];
    if (c === 'Q') {
      // \Q…\E: every character a literal one
      const end = pattern.indexOf('\\E', at);
      const literal = (end === -1 ? pattern.length : end) - at;
      at = end === -1 ? pattern.length : end + 2;
      return Math.max(literal, 1);
    }
    if ((c === 'p' || c === 'P' || c === 'x') && peek() === '{') {
      const end = pattern.indexOf('}', at);
      at = end === -1 ? pattern.length : end + 1;
    }
    return 1;
  };

  let size = 0;
  // A `)` with no `(` is a syntax error when compiled; it is stepped over here.
  while (at < pattern.length) {
    size += alternation();
    if (peek() === ')') at++;
  }
  // Every program: the capture of the whole match, its start and `match`, and the unanchored `.*?` loop.
  return size + 6;
}
