import { isCaptureRecord, type CaptureRecord } from '../../shared/capture.js';

export type ConsolePane = {
  clear(): void;
  /** An expression entered at the prompt, shown before its result. */
  echo(code: string): void;
  /** Records an output page on another device sent back through the server. */
  showRemote(records: unknown[]): void;
};

const LEVELS = new Set(['log', 'info', 'warn', 'error', 'debug', 'result', 'input']);
/** Enough lines to debug with; a bin logging in a loop must not grow the page without end. */
const MAX_LINES = 500;

/**
 * "GET https://x/y 200 · 12 ms · 1.2 KB", the line a fetch or XMLHttpRequest gets, and "→ users #1" after
 * it when a mock endpoint answered (its response #1; the endpoint's name alone for its own answer).
 */
export function networkText(r: Extract<CaptureRecord, { snippetkit: 'network' }>): string {
  const size = r.size === null ? '' : r.size < 1024 ? ` · ${r.size} B` : ` · ${(r.size / 1024).toFixed(1)} KB`;
  const answer = typeof r.answer === 'string' && r.answer !== '' ? ` → ${r.answer}` : '';
  return `${r.method} ${r.url} ${r.status === 0 ? 'failed' : r.status} · ${r.ms} ms${size}${answer}`;
}

/** Shows what the preview `frame` (and remote output pages) report in the `#console-log` list. */
export function createConsolePane(frame: HTMLIFrameElement): ConsolePane {
  const list = document.getElementById('console-log')!;
  const clear = () => list.replaceChildren();
  document.getElementById('console-clear')!.addEventListener('click', clear);

  function show(record: CaptureRecord, remote: boolean): void {
    const line = document.createElement('li');
    if (record.snippetkit === 'network') {
      line.className = record.status === 0 || record.status >= 400 ? 'network error' : 'network';
      line.textContent = networkText(record);
    } else {
      line.className = LEVELS.has(record.level) ? record.level : 'log';
      line.textContent = record.args.map(String).join(' ');
    }
    if (remote) {
      line.classList.add('remote');
      line.textContent = `[remote] ${line.textContent}`;
    }
    list.append(line);
    while (list.childElementCount > MAX_LINES) list.firstElementChild!.remove();
    list.scrollTop = list.scrollHeight;
  }

  window.addEventListener('message', (event) => {
    // Only our preview: its origin is opaque ("null"), so the window is what identifies it.
    if (event.source === frame.contentWindow && isCaptureRecord(event.data)) show(event.data, false);
  });
  // Ctrl/Cmd+L clears it, as in JS Bin and browsers' consoles (capture phase: from inside an editor too).
  addEventListener(
    'keydown',
    (event) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'l') {
        event.preventDefault();
        clear();
      }
    },
    true,
  );
  return {
    clear,
    echo: (code) => show({ snippetkit: 'console', level: 'input', args: [code] }, false),
    showRemote: (records) => records.filter(isCaptureRecord).forEach((record) => show(record, true)),
  };
}
