/**
 * Which bin made a call to a mock endpoint (`fumugi/3`). Output pages and the editor's preview run
 * sandboxed, at an opaque origin: Chromium sends their requests with `Origin: null` and no `Referer`,
 * whatever referrer policy the page sets (measured in Chromium 156, meta and header alike; the
 * referrer spec gives no referrer for an opaque origin). So the page says it itself: the script below
 * adds BIN_HEADER to its own calls to `/endpoint/…` on its own origin. The mock server takes it as an
 * untrusted claim (parseBinClaim) that names the bin in its request log and changes no answer.
 */

/** The request header a bin's page adds to its calls to its own origin's `/endpoint/…`. */
export const BIN_HEADER = 'X-Snippetkit-Bin';
/** How node names it in `req.headers`. */
export const BIN_HEADER_KEY = 'x-snippetkit-bin';

/**
 * With private mocks (`snippetkit serve --private-mocks`, src/server/mock-gate.ts), the token the page
 * that served the bin carries for its claim: the sandboxed page has no cookie to show for itself.
 */
export const MOCK_TOKEN_HEADER = 'X-Snippetkit-Mock-Token';
/** How node names it in `req.headers`. */
export const MOCK_TOKEN_HEADER_KEY = 'x-snippetkit-mock-token';
// What src/server/mock-token.ts makes; checked again here, as the token is written into a script.
const TOKEN = /^[0-9]{1,12}\.[A-Za-z0-9_-]{43}$/;

/** A bin id (lowercase, as bins are stored: src/bins/addresses/ids.ts) up to 64 characters, `/`, a revision from 1. */
const CLAIM = /^[a-z0-9_-]{1,64}\/[1-9][0-9]{0,8}$/;
/** The longest claim CLAIM takes: nothing longer is even matched. */
export const MAX_CLAIM_LENGTH = 64 + 1 + 9;

/** `value` when it is exactly a bin and revision (`fumugi/3`), else undefined: a repeated header, spaces, any other text. */
export function parseBinClaim(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_CLAIM_LENGTH || !CLAIM.test(value)) return undefined;
  return value;
}

/**
 * The claim of the editor's preview of a bin not saved yet (at `/`), which only private mocks need: its
 * token's claim, so its calls pass the gate. It names no bin (a `/` would be in any bin's), so
 * parseBinClaim refuses it and no request log says a bin made the call.
 */
export const NEW_BIN_CLAIM = 'new';

/** What a token may be made for: a bin and revision, or NEW_BIN_CLAIM. */
export function parseTokenClaim(value: string | string[] | undefined): string | undefined {
  return value === NEW_BIN_CLAIM ? value : parseBinClaim(value);
}

/**
 * Script run in a bin's page after the console capture (src/shared/capture.ts): wraps fetch and
 * XMLHttpRequest once more so each call under `endpoints` (the server's `/endpoint/`, relative to the
 * page: `../../endpoint/`, or absolute) on the page's own origin carries BIN_HEADER with `claim`. Other calls are untouched (a header of ours would cost another server a preflight, and
 * tell it which bin called). The header makes the call a CORS preflighted one, which the mock server
 * answers (Access-Control-Max-Age: 600). With `token` (private mocks), the calls carry MOCK_TOKEN_HEADER too.
 * Plain ES5 in a string: it runs in the bin's page.
 */
export function binClaimScript(claim: string, endpoints: string, token?: string): string {
  const tokened = token !== undefined && TOKEN.test(token);
  // A new bin has nothing to claim but its token: without one it sends nothing, and costs no preflights.
  if (parseBinClaim(claim) === undefined && !(claim === NEW_BIN_CLAIM && tokened)) return '';
  const headers: [string, string][] = [[BIN_HEADER, claim]];
  if (tokened) headers.push([MOCK_TOKEN_HEADER, token]);
  return `(function () {
  var headerList = ${JSON.stringify(headers)};
  // Taken now, before the bin's own <base> can move it: the output page's address, or the editor's for
  // its srcdoc preview (about:srcdoc has no origin of its own; its base is its parent's).
  var base;
  try {
    var home = new URL(location.protocol === 'about:' ? document.baseURI : location.href);
    base = new URL(${JSON.stringify(endpoints)}, home);
    if (base.origin !== home.origin) return;
  } catch (e) {
    return;
  }
  function ours(url) {
    try {
      return new URL(String(url), document.baseURI).href.indexOf(base.href) === 0;
    } catch (e) {
      return false;
    }
  }
  if (window.fetch && window.Headers) {
    var originalFetch = window.fetch;
    window.fetch = function (input, init) {
      try {
        var isRequest = window.Request && input instanceof Request;
        if (ours(isRequest ? input.url : input)) {
          var given = init && init.headers !== undefined ? init.headers : isRequest ? input.headers : undefined;
          var headers = new Headers(given);
          for (var i = 0; i < headerList.length; i++) {
            if (!headers.has(headerList[i][0])) headers.set(headerList[i][0], headerList[i][1]);
          }
          var copy = {};
          if (init) for (var key in init) copy[key] = init[key];
          copy.headers = headers;
          return originalFetch.call(this, input, copy);
        }
      } catch (e) {}
      return originalFetch.apply(this, arguments);
    };
  }
  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.__snippetkitClaim = ours(url);
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (this.__snippetkitClaim) {
      for (var i = 0; i < headerList.length; i++) {
        try { this.setRequestHeader(headerList[i][0], headerList[i][1]); } catch (e) {}
      }
    }
    return send.apply(this, arguments);
  };
})();`;
}
