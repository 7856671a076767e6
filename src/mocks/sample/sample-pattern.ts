/**
 * A string a JSON Schema `pattern` (an ECMA-262 regular expression) matches, made by reading the
 * pattern rather than by trying strings against it: literals, escapes (`\d`, `\w`, `\.`...), classes
 * (`[a-z0-9_-]`, `[^/]`), groups, alternatives and quantifiers. A pattern using anything else
 * (lookaround, back-references, Unicode properties) gives undefined and the caller's plain string.
 * Bounded: a pattern of at most MAX_PATTERN characters, repetitions of at most MAX_REPEAT, an answer
 * of at most MAX_LENGTH. Each quantifier takes its least count first; if that is too short for the
 * caller, `generous` takes a few more.
 */
export function samplePattern(pattern: string, variant = 0, generous = false): string | undefined {
  if (pattern.length > MAX_PATTERN) return undefined;
  try {
    const reader = new Reader(pattern, variant, generous);
    const text = reader.alternatives();
    if (reader.at < pattern.length) return undefined;
    return text.length <= MAX_LENGTH ? text : undefined;
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

const MAX_PATTERN = 1_000;
const MAX_REPEAT = 256;
const MAX_LENGTH = 1_024;
// Characters a negated class or class escape may pick from, in order of preference.
const PRINTABLE = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~ !#$%&*+,/:;=?@';

class Unsupported extends Error {}

class Reader {
  at = 0;
  private depth = 0;

  constructor(
    private readonly source: string,
    private readonly variant: number,
    private readonly generous: boolean,
  ) {}

  /** `a|b|c` up to the end or a closing parenthesis: the first alternative (the variant's, when it differs). */
  alternatives(): string {
    if (++this.depth > 32) throw new Unsupported();
    const found = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      found.push(this.sequence());
    }
    this.depth--;
    return found[this.variant % found.length]!;
  }

  private sequence(): string {
    let text = '';
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const atom = this.atom();
      const [least, most] = this.quantifier();
      const count = this.generous ? Math.min(Math.max(least, Math.min(most, least + 3)), MAX_REPEAT) : least;
      text += atom.repeat(count);
      if (text.length > MAX_LENGTH) throw new Unsupported();
    }
    return text;
  }

  private atom(): string {
    const char = this.source[this.at++]!;
    if (char === '^' || char === '$') return '';
    if (char === '.') return 'a';
    if (char === '\\') return this.escape(false);
    if (char === '[') return this.charClass();
    if (char === '(') {
      if (this.source[this.at] === '?') {
        const named = /^\?<[A-Za-z_$][\w$]*>/.exec(this.source.slice(this.at));
        if (this.source[this.at + 1] === ':') this.at += 2;
        else if (named) this.at += named[0].length;
        else throw new Unsupported();
      }
      const inside = this.alternatives();
      if (this.source[this.at++] !== ')') throw new Unsupported();
      return inside;
    }
    // A quantifier with nothing to repeat: not a pattern.
    if ('*+?'.includes(char)) throw new Unsupported();
    return char;
  }

  /** `?` `*` `+` `{n}` `{n,}` `{n,m}` (a lazy `?` after one changes nothing here): [least, most]. */
  private quantifier(): [number, number] {
    const char = this.source[this.at];
    let found: [number, number] = [1, 1];
    if (char === '?') found = [0, 1];
    else if (char === '*') found = [0, Infinity];
    else if (char === '+') found = [1, Infinity];
    else if (char === '{') {
      const braces = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (!braces) return found;
      const least = Number(braces[1]);
      const most = braces[2] === undefined ? least : braces[3] === '' ? Infinity : Number(braces[3]);
      if (least > MAX_REPEAT) throw new Unsupported();
      this.at += braces[0].length - 1;
      found = [least, most];
    } else return found;
    this.at++;
    if (this.source[this.at] === '?') this.at++;
    return found;
  }

  private escape(inClass: boolean): string {
    const char = this.source[this.at++];
    if (char === undefined) throw new Unsupported();
    const digit = String(this.variant % 10);
    const classes: Record<string, string> = { d: digit, D: 'a', w: 'a', W: '-', s: ' ', S: 'a' };
    if (char in classes) return classes[char]!;
    const controls: Record<string, string> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', '0': '\0' };
    if (char in controls) return controls[char]!;
    if (char === 'b') {
      if (inClass) return '\b';
      return '';
    }
    if (char === 'B') throw new Unsupported();
    const code = char === 'x' ? /^[0-9a-fA-F]{2}/.exec(this.source.slice(this.at)) : char === 'u' ? /^[0-9a-fA-F]{4}/.exec(this.source.slice(this.at)) : null;
    if (code) {
      this.at += code[0].length;
      return String.fromCharCode(parseInt(code[0], 16));
    }
    // A back-reference, \p{...}, \k<name> or \cX: not read here.
    if (/[1-9pPkc]/.test(char)) throw new Unsupported();
    return char;
  }

  /** `[...]`: a character it allows (the variant's, when there are several). */
  private charClass(): string {
    const negated = this.source[this.at] === '^';
    if (negated) this.at++;
    const allowed: [string, string][] = [];
    while (this.source[this.at] !== ']') {
      if (this.at >= this.source.length) throw new Unsupported();
      let low = this.source[this.at++]!;
      if (low === '\\') {
        const escaped = this.source[this.at];
        // A class escape inside a class stands for its set: one of its members will do.
        low = this.escape(true);
        if (escaped !== undefined && 'dDwWsS'.includes(escaped)) {
          allowed.push(...[...classMembers(escaped)].map((c): [string, string] => [c, c]));
          continue;
        }
      }
      let high = low;
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']' && this.at + 1 < this.source.length) {
        this.at++;
        high = this.source[this.at++]!;
        if (high === '\\') high = this.escape(true);
      }
      allowed.push([low, high]);
    }
    this.at++;
    const fits = (c: string) => allowed.some(([low, high]) => c >= low && c <= high);
    if (negated) {
      const picked = [...PRINTABLE].find((c) => !fits(c));
      if (picked === undefined) throw new Unsupported();
      return picked;
    }
    const preferred = [...PRINTABLE].filter(fits);
    if (preferred.length > 0) return preferred[this.variant % preferred.length]!;
    if (allowed.length === 0) throw new Unsupported();
    return allowed[0]![0];
  }
}

function classMembers(escape: string): string {
  return [...PRINTABLE, ' '].filter((c) => {
    const word = /\w/.test(c);
    if (escape === 'd') return /\d/.test(c);
    if (escape === 'D') return !/\d/.test(c);
    if (escape === 'w') return word;
    if (escape === 'W') return !word;
    if (escape === 's') return c === ' ';
    return c !== ' ';
  }).join('');
}
