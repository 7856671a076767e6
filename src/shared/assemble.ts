/**
 * Building an output page from a bin's panels: JS Bin's rules (docs/bin-api.md § Pages). Pure and
 * free of Node and DOM APIs, because the server (`/:bin`) and the editor's live preview both run it and
 * must agree on what a bin looks like.
 */

/** The three panels of a bin, after any preprocessing. */
export type Panels = { html: string; css: string; javascript: string };

export type AssembleOptions = {
  /** Where the "edit" link points; no link when undefined (the quiet routes, downloads, the preview). */
  editUrl?: string;
  /** Names the bin in the comment after the charset meta, e.g. "rovoqe/3"; no comment when undefined. */
  label?: string;
  /** Script source run before anything of the bin's own (the preview's console capture). */
  prelude?: string;
  /** Compile errors of the panels, shown in a box over the page. */
  errors?: string[];
};

type Insert = { at: number; text: string };

/** The output page for `panels`. */
export function assemble({ html, css, javascript }: Panels, options: AssembleOptions = {}): string {
  // Insertion points are found in the user's html before anything is put in, so code that
  // happens to contain "</body>" cannot move them.
  const inserts: Insert[] = [];
  const top = headerPoint(html);
  if (options.label !== undefined) inserts.push({ at: top, text: `\n<!-- Made with snippetkit: ${commentSafe(options.label)} -->` });
  if (options.prelude !== undefined) inserts.push({ at: top, text: `\n<script>${scriptSafe(options.prelude)}</script>` });
  if (!html.includes('%css%') && css.trim() !== '') {
    inserts.push({ at: stylePoint(html), text: `<style>\n${styleSafe(css)}\n</style>\n` });
  }
  const end = bodyEndPoint(html);
  if (!html.includes('%code%') && javascript.trim() !== '') {
    inserts.push({ at: end, text: `<script>\n${scriptSafe(javascript)}\n</script>\n` });
  }
  if (options.errors?.length) inserts.push({ at: end, text: errorBoxScript(options.errors) });
  if (options.editUrl !== undefined) inserts.push({ at: end, text: editLinkScript(options.editUrl) });

  // Stable sort: inserts at one point keep the order they were pushed in.
  inserts.sort((a, b) => a.at - b.at);
  let out = '';
  let from = 0;
  for (const { at, text } of inserts) {
    out += substitute(html.slice(from, at), javascript, css) + text;
    from = at;
  }
  return out + substitute(html.slice(from), javascript, css);
}

/** Every %code% and %css%, in one pass so a panel that contains the other placeholder is left as it is. */
function substitute(html: string, javascript: string, css: string): string {
  return html.replace(/%code%|%css%/g, (found) => (found === '%code%' ? javascript : css));
}

/** After the charset meta; else after <head>; else after the doctype (never before it: quirks mode); else first. */
function headerPoint(html: string): number {
  return endOf(html, /<meta\b[^>]*\bcharset\b[^>]*>/i) ?? endOf(html, /<head\b[^>]*>/i) ?? doctypeEnd(html);
}

/** Just before the last </head>; else after </title>; else first (after a doctype). */
function stylePoint(html: string): number {
  const head = lastIndex(html, '</head>');
  if (head !== -1) return head;
  return endOf(html, /<\/title\s*>/i) ?? doctypeEnd(html);
}

/** Just before the last </body>, else at the end. */
function bodyEndPoint(html: string): number {
  const body = lastIndex(html, '</body>');
  return body === -1 ? html.length : body;
}

function doctypeEnd(html: string): number {
  return endOf(html, /^\s*<!doctype\b[^>]*>/i) ?? 0;
}

function endOf(html: string, pattern: RegExp): number | undefined {
  const match = pattern.exec(html);
  return match ? match.index + match[0].length : undefined;
}

function lastIndex(html: string, tag: string): number {
  return html.toLowerCase().lastIndexOf(tag);
}

// In the <script> and <style> we add, a "</script" or "</style" in the code would end the element
// early; "<\/" means the same inside JS strings, regexps and comments and inside CSS.
function scriptSafe(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1');
}

function styleSafe(code: string): string {
  return code.replace(/<\/(style)/gi, '<\\/$1');
}

function commentSafe(text: string): string {
  return text.replace(/--/g, '- -');
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Compile errors over the page, as text: a script like the edit link, so it works whatever the html is. */
function errorBoxScript(errors: string[]): string {
  return (
    '<script>(function () {\n' +
    "  var box = document.createElement('pre');\n" +
    "  box.id = 'snippetkit-errors';\n" +
    `  box.textContent = ${scriptJson(errors.join('\n'))};\n` +
    "  box.setAttribute('style', 'position:fixed;left:0;right:0;top:0;z-index:2147483647;margin:0;padding:8px;" +
    "white-space:pre-wrap;font:13px/1.4 ui-monospace,monospace;background:#fee;color:#900;border-bottom:1px solid #c00');\n" +
    '  document.documentElement.appendChild(box);\n' +
    '})();</script>\n'
  );
}

/** A script, not markup, so the link is not part of the bin's own html. */
function editLinkScript(url: string): string {
  const href = scriptJson(url);
  return (
    '<script>(function () {\n' +
    "  var a = document.createElement('a');\n" +
    `  a.href = ${href};\n` +
    "  a.id = 'snippetkit-edit';\n" +
    "  a.textContent = 'Edit in snippetkit';\n" +
    "  a.setAttribute('style', 'position:fixed;right:0;bottom:0;z-index:2147483647;padding:4px 8px;" +
    "font:12px/1.4 system-ui,sans-serif;background:#222;color:#fff;text-decoration:none;border-top-left-radius:4px');\n" +
    '  document.body.appendChild(a);\n' +
    '})();</script>\n'
  );
}
