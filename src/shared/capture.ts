/**
 * What a bin's page reports while it runs: console calls, uncaught errors, and every fetch and
 * XMLHttpRequest (method, URL, status, duration, response size, and which mock endpoint answered: the
 * mock server's X-Snippetkit-Answer, exposed to every origin, read only where the browser allows). Plain ES5 in a string because it runs
 * in the bin's page, first of all its scripts. `deliver` is the source of a function taking one record:
 * the editor's preview posts it to its parent, an output page sends it to the server.
 */
export function captureScript(deliver: string, jsSourceUrl: string): string {
  return `(function () {
  var deliver = ${deliver};
  function show(value) {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return String(value);
    try {
      var json = JSON.stringify(value);
      return json === undefined ? String(value) : json;
    } catch (e) {
      return String(value);
    }
  }
  function send(level, args) {
    try { deliver({ snippetkit: 'console', level: level, args: args }); } catch (e) {}
  }
  function network(method, url, status, started, size, answer) {
    try {
      var record = { snippetkit: 'network', method: String(method || 'GET').toUpperCase(), url: String(url), status: status,
        ms: Math.round(performance.now() - started), size: size };
      if (typeof answer === 'string' && answer) record.answer = answer.slice(0, 200);
      deliver(record);
    } catch (e) {}
  }
  // From the headers a script may read: getResponseHeader on a header not exposed logs a refusal.
  function answerOfXhr(xhr) {
    var found = /(?:^|\\n)x-snippetkit-answer: *([^\\r\\n]*)/i.exec(xhr.getAllResponseHeaders() || '');
    return found ? found[1] : null;
  }
  ['log', 'info', 'warn', 'error', 'debug'].forEach(function (level) {
    var original = console[level];
    console[level] = function () {
      send(level, Array.prototype.map.call(arguments, show));
      return original.apply(console, arguments);
    };
  });
  addEventListener('error', function (event) {
    // Lines of the JavaScript pane: its script is named by a sourceURL and starts with a newline.
    var inPane = event.filename === ${JSON.stringify(jsSourceUrl)};
    send('error', [event.message + (inPane && event.lineno > 1 ? ' (line ' + (event.lineno - 1) + ')' : '')]);
  });
  // The editor's console prompt: an expression to evaluate here, in the page's global scope, sent by the
  // frame's parent (never by the page to itself); the answer is a record like any other.
  addEventListener('message', function (event) {
    var data = event.data;
    if (parent === window || event.source !== parent || !data || data.snippetkit !== 'eval' || typeof data.code !== 'string') return;
    try {
      var value = (0, eval)(data.code);
      deliver({ snippetkit: 'console', level: 'result', args: [show(value)] });
    } catch (e) {
      deliver({ snippetkit: 'console', level: 'error', args: [show(e)] });
    }
  });
  addEventListener('unhandledrejection', function (event) {
    send('error', ['Uncaught (in promise) ' + show(event.reason)]);
  });
  if (window.fetch) {
    var originalFetch = window.fetch;
    window.fetch = function (input, init) {
      var started = performance.now();
      var method = (init && init.method) || (input && input.method) || 'GET';
      var url = typeof input === 'string' ? input : (input && input.url) || String(input);
      return originalFetch.apply(this, arguments).then(function (res) {
        // The size from a clone, so the page still reads its own body.
        var answer = res.headers.get('x-snippetkit-answer');
        res.clone().arrayBuffer().then(function (b) { network(method, res.url || url, res.status, started, b.byteLength, answer); },
          function () { network(method, res.url || url, res.status, started, null, answer); });
        return res;
      }, function (err) {
        network(method, url, 0, started, null);
        throw err;
      });
    };
  }
  var open = XMLHttpRequest.prototype.open;
  var sendXhr = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.__snippetkit = { method: method, url: url };
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    var xhr = this, info = xhr.__snippetkit, started = performance.now();
    if (info) xhr.addEventListener('loadend', function () {
      var size = null;
      try {
        var body = xhr.response;
        size = typeof body === 'string' ? new Blob([body]).size : body && body.byteLength !== undefined ? body.byteLength : body && body.size !== undefined ? body.size : null;
      } catch (e) {}
      var answer = null;
      try { answer = answerOfXhr(xhr); } catch (e) {}
      network(info.method, xhr.responseURL || info.url, xhr.status, started, size, answer);
    });
    return sendXhr.apply(this, arguments);
  };
})();`;
}

export type ConsoleRecord = { snippetkit: 'console'; level: string; args: string[] };
export type NetworkRecord = {
  snippetkit: 'network';
  method: string;
  url: string;
  status: number;
  ms: number;
  size: number | null;
  /** Which mock endpoint and response answered (`users #1`), when a mock server said so. */
  answer?: string;
};
export type CaptureRecord = ConsoleRecord | NetworkRecord;

export function isCaptureRecord(data: unknown): data is CaptureRecord {
  const record = data as { snippetkit?: unknown; level?: unknown; args?: unknown; url?: unknown; status?: unknown } | null;
  if (record?.snippetkit === 'console') return typeof record.level === 'string' && Array.isArray(record.args);
  return record?.snippetkit === 'network' && typeof record.url === 'string' && typeof record.status === 'number';
}
