/**
 * A library the editor's "Add library" inserts: its tags, with exact versions so a bin keeps working as it
 * was written (a range or "latest" would change under it). `keywords` are what else a search finds it by.
 * The list itself is data, in library-list.ts.
 */
export type Library = { id: string; name: string; keywords: string; tags: string[] };

/** The libraries whose name, id or keywords hold every word of `query`, names that start with it first. */
export function searchLibraries(libraries: Library[], query: string): Library[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const found = libraries.filter((library) => {
    const text = `${library.name} ${library.id} ${library.keywords}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
  const first = words[0];
  if (!first) return found;
  const leads = (library: Library) => (library.name.toLowerCase().startsWith(first) ? 0 : 1);
  return found.sort((a, b) => leads(a) - leads(b)); // stable: the list's own order otherwise
}

/**
 * Any address typed into the search, as a library of one tag: a stylesheet when its path ends in .css, a
 * script otherwise. Only https: a page served over https cannot load http, and other schemes
 * (javascript:, data:) are not libraries. `undefined` for text that is no address at all.
 */
export function urlLibrary(text: string): { library: Library } | { refused: string } | undefined {
  const typed = text.trim();
  if (!/^[a-z][a-z0-9+.-]*:/i.test(typed) || /\s/.test(typed)) return undefined;
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || !url.hostname) return { refused: 'Only https:// addresses can be added.' };
  // The parser has escaped what would end the attribute (quotes, angle brackets, spaces).
  const href = url.href;
  const css = /\.css$/i.test(url.pathname);
  const tag = css ? `<link rel="stylesheet" href="${href}">` : `<script src="${href}"></script>`;
  return { library: { id: 'url', name: href, keywords: '', tags: [tag] } };
}

/** Where a tag points: what "already there" is judged by, whatever its attributes' order or quotes. */
function urlOf(tag: string): string {
  return /(?:src|href)="([^"]+)"/.exec(tag)![1]!;
}

/**
 * The text to insert into `html` for `library` and where: before `</head>` (indented as the line before it)
 * if there is one, else at the top. Tags whose URL is already in the HTML are left out; `undefined` when
 * all are.
 */
export function libraryInsertion(html: string, library: Library): { at: number; text: string } | undefined {
  const missing = library.tags.filter((tag) => !html.includes(urlOf(tag)));
  if (missing.length === 0) return undefined;
  const head = /<\/head\s*>/i.exec(html);
  if (!head) return { at: 0, text: missing.map((tag) => tag + '\n').join('') };
  const lineStart = html.lastIndexOf('\n', head.index - 1) + 1;
  const before = html.slice(lineStart, head.index);
  // `</head>` alone on its line: new lines go above it, indented one step more than it.
  if (/^[ \t]*$/.test(before)) {
    const indent = before + '  ';
    return { at: lineStart, text: missing.map((tag) => indent + tag + '\n').join('') };
  }
  return { at: head.index, text: missing.join('') };
}
