/**
 * Runs first inside the preview: forwards console calls and uncaught errors to the editor with
 * postMessage (the sandboxed preview can reach nothing else of the editor). Plain ES5 in a string
 * because it runs in the bin's page, not in our bundle. Issue 7 adds fetch/XHR records here.
 */
export const JS_SOURCE_URL = 'javascript.js';

export const CAPTURE_SCRIPT = `(function () {
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
    try {
      parent.postMessage({ snippetkit: 'console', level: level, args: args }, '*');
    } catch (e) {}
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
    var inPane = event.filename === '${JS_SOURCE_URL}';
    send('error', [event.message + (inPane && event.lineno > 1 ? ' (line ' + (event.lineno - 1) + ')' : '')]);
  });
  addEventListener('unhandledrejection', function (event) {
    send('error', ['Uncaught (in promise) ' + show(event.reason)]);
  });
})();`;

/** A console record as the preview sends it. */
export type ConsoleMessage = { snippetkit: 'console'; level: string; args: string[] };

export function isConsoleMessage(data: unknown): data is ConsoleMessage {
  const message = data as ConsoleMessage | null;
  return message?.snippetkit === 'console' && typeof message.level === 'string' && Array.isArray(message.args);
}
