const MAX = 255;

/** Titles a bin has until someone names it: the starter's and JS Bin's. They say nothing about the bin. */
const UNNAMED = new Set(['', 'snippetkit', 'js bin']);

/** Elements that end a line of text where they start or end. */
const BLOCK = /<\/?(address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|td|th|tr|ul)\b[^>]*>/gi;

/**
 * What the list says a bin is (docs/bin-api.md § My bins): the page's <title>, unless it is a
 * starter's; else its first h1–h3; else the first line of its text (the body's, else the javascript's,
 * else the css's). Plain text, entities decoded, at most 255 characters. Worked out once per save.
 */
export function listSummary(html: string, javascript: string, css: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const titled = title === undefined ? '' : oneLine(text(title));
  if (!UNNAMED.has(titled.toLowerCase())) return cut(titled);
  const heading = /<h([1-3])\b[^>]*>([\s\S]*?)<\/h\1\s*>/i.exec(withoutCode(html))?.[2];
  const headed = heading === undefined ? '' : oneLine(text(heading));
  if (headed) return cut(headed);
  const body = /<body[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(html)?.[1] ?? html.replace(/<head[\s\S]*?<\/head>/i, '');
  for (const source of [text(withoutCode(body).replace(BLOCK, '\n')), javascript, css]) {
    const line = firstLine(source);
    if (line) return cut(line);
  }
  return '';
}

/** The html without comments, scripts and styles, whose text is not the page's. */
function withoutCode(html: string): string {
  return html.replace(/<!--[\s\S]*?(-->|$)/g, ' ').replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, ' ');
}

/** Markup to its text: tags dropped, the common entities decoded. */
function text(markup: string): string {
  return decode(markup.replace(/<[^>]*>/g, ''));
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function firstLine(text: string): string {
  for (const line of text.split(/\r?\n|\r/)) {
    const trimmed = oneLine(line);
    if (trimmed) return trimmed;
  }
  return '';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string): string {
  return text.length > MAX ? `${text.slice(0, MAX - 1).trimEnd()}…` : text;
}
