import { captureScript } from '../../shared/capture.js';
import { TOKEN_PARAM } from '../auth/auth.js';

export type FollowOptions = {
  /** The bin, and the revision number when the address names one (it then moves on to newer ones). */
  bin: string;
  rev: number | undefined;
  /** The server's root, relative to the page ("../"). */
  root: string;
  /** The bin's read capability, when reads need the key (see readToken in ../auth/auth.ts). */
  token?: string;
};

/**
 * Run first in every output page (remote rendering): follows the bin over its event stream, applies
 * css in place, shows html/js changes by reloading with `?live` (the server then renders the editor's
 * broadcast panels) and moves to new revisions; console and network records go back to the server for
 * the editor following the bin. Plain ES5: it runs in the bin's page.
 */
export function followScript({ bin, rev, root, token }: FollowOptions): string {
  const consoleUrl = `${root}api/${bin}/console${token ? `?${TOKEN_PARAM}=${token}` : ''}`;
  // Batched: a page logging in a loop sends one request per 250 ms, never more than 50 records.
  const deliver = `(function () {
    // The page's own fetch is about to be wrapped: reports go out unrecorded.
    var post = window.fetch ? window.fetch.bind(window) : null;
    var queue = [], timer = null;
    function flush() {
      timer = null;
      var records = queue.splice(0, 50);
      if (!records.length || !post) return;
      // text/plain: a simple request from this opaque origin, no preflight.
      post(${JSON.stringify(consoleUrl)}, { method: 'POST', body: JSON.stringify({ records: records }), keepalive: true }).catch(function () {});
    }
    return function (record) {
      if (queue.length < 200) queue.push(record);
      if (!timer) timer = setTimeout(flush, 250);
    };
  })()`;
  return `(function () {
  if (!window.EventSource) return;
  // The page's own address is the stream: JS Bin's Accept: text/event-stream. Its own navigations
  // come from an opaque origin, without cookies: they carry the capability when there is one.
  var here = location.pathname;
  var token = ${JSON.stringify(token ?? null)};
  var wasLive = /[?&]live(=|&|$)/.test(location.search);
  function at(path, live) {
    var query = (live ? ['live'] : []).concat(token ? ['${TOKEN_PARAM}=' + token] : []);
    return query.length ? path + '?' + query.join('&') : path;
  }
  var source = new EventSource(at(here, false));
  var numbered = ${rev === undefined ? 'false' : 'true'};
  function go(url) { source.close(); location.replace(url); }
  source.addEventListener('css:processed', function (event) {
    var styles = document.head ? document.head.getElementsByTagName('style') : [];
    var style = styles.length ? styles[styles.length - 1] : null;
    if (!style) {
      style = document.createElement('style');
      (document.head || document.documentElement).appendChild(style);
    }
    style.textContent = event.data;
  });
  function reloadLive() { go(at(here, true)); }
  source.addEventListener('html:processed', reloadLive);
  source.addEventListener('javascript:processed', reloadLive);
  source.addEventListener('reload', function () { go(at(here, wasLive)); });
  source.addEventListener('bump-revision', function (event) {
    var rev = String(event.data).split('/')[1];
    var next = numbered ? ${JSON.stringify(`${root}${bin}/`)} + rev + (/\\/quiet$/.test(here) ? '/quiet' : '') : here;
    go(at(next, false));
  });
})();
${captureScript(deliver, '')}`;
}
