const MAX = 255;

/**
 * JS Bin's plain-text title of a bin: the first of the html's meta description, the body's text,
 * the javascript, the css, the <title>; whitespace collapsed, at most 255 characters.
 */
export function summarize(html: string, javascript: string, css: string): string {
  const description = /<meta\s[^>]*name=["']?description["']?[^>]*>/i.exec(html)?.[0];
  const content = description && /content=(["'])(.*?)\1/is.exec(description)?.[2];
  const body = /<body[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(html)?.[1] ?? html.replace(/<head[\s\S]*?<\/head>/i, '');
  const bodyText = body
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ');
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  for (const candidate of [content, bodyText, javascript, css, title]) {
    const text = clean(candidate ?? '');
    if (text) return text.length > MAX ? text.slice(0, MAX).trimEnd() : text;
  }
  return '';
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
