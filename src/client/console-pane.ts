import { isConsoleMessage } from './capture.js';

export type ConsolePane = { clear(): void };

const LEVELS = new Set(['log', 'info', 'warn', 'error', 'debug']);
/** Enough lines to debug with; a bin logging in a loop must not grow the page without end. */
const MAX_LINES = 500;

/** Shows what the preview `frame` logs in the `#console-log` list. */
export function createConsolePane(frame: HTMLIFrameElement): ConsolePane {
  const list = document.getElementById('console-log')!;
  const clear = () => list.replaceChildren();
  document.getElementById('console-clear')!.addEventListener('click', clear);

  window.addEventListener('message', (event) => {
    // Only our preview: its origin is opaque ("null"), so the window is what identifies it.
    if (event.source !== frame.contentWindow || !isConsoleMessage(event.data)) return;
    const line = document.createElement('li');
    line.className = LEVELS.has(event.data.level) ? event.data.level : 'log';
    line.textContent = event.data.args.join(' ');
    list.append(line);
    while (list.childElementCount > MAX_LINES) list.firstElementChild!.remove();
    list.scrollTop = list.scrollHeight;
  });
  return { clear };
}
