import { isCaptureRecord } from '../shared/capture.js';
import { networkText } from './console-pane.js';

/**
 * The embed page's console panel: lists what the output frame reports (console calls, errors, requests).
 * The frame is sandboxed with an opaque origin, so its window is what identifies it.
 */
const frame = document.querySelector<HTMLIFrameElement>('section[data-pane="output"] iframe');
const list = document.getElementById('console-log');
const MAX_LINES = 500;

if (frame && list) {
  addEventListener('message', (event) => {
    if (event.source !== frame.contentWindow || !isCaptureRecord(event.data)) return;
    const record = event.data;
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
  });
}
