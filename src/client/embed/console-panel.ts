import { isCaptureRecord } from '../../shared/capture.js';
import { networkText } from '../console/console-pane.js';

/**
 * The embed page's console panel: lists what the output frame reports (console calls, errors, requests).
 * The frame is sandboxed with an opaque origin, so its window is what identifies it.
 */
const frame = document.querySelector<HTMLIFrameElement>('section[data-pane="output"] iframe');
const list = document.getElementById('console-log');
const MAX_LINES = 500;

type Message = { source: MessageEventSource | null; data: unknown };

declare global {
  // Filled by the page's inline script until this bundle runs (templates/embed.html).
  interface Window { snippetkitEarly?: Message[] }
}

function show(message: Message): void {
  if (!frame || !list || message.source !== frame.contentWindow || !isCaptureRecord(message.data)) return;
  const record = message.data;
  const line = document.createElement('li');
  if (record.snippetkit === 'network') {
    line.className = record.status === 0 || record.status >= 400 ? 'error' : 'log';
    line.textContent = networkText(record);
  } else {
    line.className = record.level;
    line.textContent = record.args.map(String).join(' ');
  }
  list.append(line);
  while (list.childElementCount > MAX_LINES) list.firstElementChild!.remove();
  list.scrollTop = list.scrollHeight;
}

/** Lists what the output reported before this bundle ran, then listens for the rest. */
export function startConsole(): void {
  const early = window.snippetkitEarly ?? [];
  window.snippetkitEarly = undefined;
  early.forEach(show);
  addEventListener('message', show);
}
