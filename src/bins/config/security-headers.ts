import type { Context } from 'koa';

/**
 * Output pages and raw panels run the bin's code on our origin, where the editor keeps the API key in
 * localStorage. A CSP sandbox gives them an opaque origin, as the editor's preview iframe has.
 */
export const OUTPUT_SANDBOX = 'sandbox allow-scripts allow-modals allow-forms allow-popups';

/** Any network address, and the data: and blob: URLs bins build themselves. */
const ANYWHERE = "'self' http: https: data: blob:";

/**
 * The editor page's policy. Its own code is one same-origin module and a JSON element, but the preview
 * is an `srcdoc` iframe, which inherits this policy: the bin's inline scripts, eval, CDN libraries, images
 * and fetches must keep working, so script, style and fetch sources stay open. What the policy does buy:
 * no plugins, no <base> redirecting the editor's relative URLs (its script, the API), and no framing by
 * other sites (the Save button acts with the key kept in this origin's storage). A strict script-src
 * would need the preview served from its own URL with its own policy instead of srcdoc.
 */
export const EDITOR_CSP = pagePolicy("'self'");

/**
 * The embed page's policy (`/:bin/embed`): the editor's, but any site may frame it. That is safe because
 * the page acts on nothing (no key, no save; its links open new tabs). The bin's output inside it is an
 * srcdoc iframe, sandboxed, for the reason the editor's preview is; an output URL of ours framed there
 * would meet its own frame-ancestors, which is checked against every ancestor, the foreign site too.
 */
export const EMBED_CSP = pagePolicy('*');

function pagePolicy(frameAncestors: string): string {
  return [
    `default-src ${ANYWHERE}`,
    `script-src ${ANYWHERE} 'unsafe-inline' 'unsafe-eval'`,
    `style-src ${ANYWHERE} 'unsafe-inline'`,
    `connect-src ${ANYWHERE} ws: wss:`,
    "object-src 'none'",
    "base-uri 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

/** The headers that say who may frame an output page. */
export type Framing = { csp: string; xFrameOptions: string | undefined };

/**
 * Framing rules from config `output.frameAncestors`, a CSP source list ("'self'", "'none'", "*",
 * "https://blog.example"). X-Frame-Options only has words for 'self' and 'none'; browsers that know
 * frame-ancestors ignore it anyway, so it is left out for any other list.
 */
export function framing(frameAncestors: string): Framing {
  const sources = frameAncestors.trim();
  // One directive: a ";" or "," would add directives or a second policy to the header.
  if (sources === '' || /[;,\p{Cc}]/u.test(sources)) {
    const got = JSON.stringify(frameAncestors);
    throw new Error(`output.frameAncestors must be a CSP source list such as "'self'" (got ${got})`);
  }
  const words: Record<string, string> = { "'self'": 'SAMEORIGIN', "'none'": 'DENY' };
  return { csp: `frame-ancestors ${sources}`, xFrameOptions: words[sources] };
}

/** Headers for a body made of the bin's own code: opaque origin, framing rules, no MIME sniffing. */
export function outputHeaders(rules: Framing): [string, string][] {
  return [
    ['Content-Security-Policy', `${OUTPUT_SANDBOX}; ${rules.csp}`],
    ...(rules.xFrameOptions ? [['X-Frame-Options', rules.xFrameOptions] as [string, string]] : []),
    ['X-Content-Type-Options', 'nosniff'],
  ];
}

/** Sets outputHeaders on `ctx`. */
export function setOutputHeaders(ctx: Context, rules: Framing): void {
  for (const [name, value] of outputHeaders(rules)) ctx.set(name, value);
}

/** Headers for the editor page (/, /:bin/edit, /:bin/watch). */
export function setEditorHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', EDITOR_CSP);
  ctx.set('X-Frame-Options', 'SAMEORIGIN');
}

/**
 * The list page's policy: our markup, inline style and our own one script (its Delete buttons), which
 * talks to our own API only; no inline script (the page shows every bin's summary), forms only to
 * ourselves, framed by no other site.
 */
export const LIST_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src data:; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

/** Headers for the bin list page (/list). */
export function setListHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', LIST_CSP);
  ctx.set('X-Frame-Options', 'SAMEORIGIN');
}
