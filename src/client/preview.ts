import { assemble, type Panels } from '../shared/assemble.js';
import { CAPTURE_SCRIPT } from './capture.js';
import type { ConsolePane } from './console-pane.js';

/**
 * Renders panels into the sandboxed `#preview` iframe (no allow-same-origin: the bin gets an opaque
 * origin and cannot touch the editor's document, storage or key). srcdoc rather than a URL, so the
 * preview needs no round trip and works with unsaved code.
 */
export function renderPreview(frame: HTMLIFrameElement, panels: Panels, consolePane: ConsolePane): void {
  consolePane.clear();
  frame.srcdoc = assemble(panels, { prelude: CAPTURE_SCRIPT });
}
