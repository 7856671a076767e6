import { assemble, type Panels } from '../../shared/assemble.js';
import { protectLoops } from '../../shared/loop-protect.js';
import { CAPTURE_SCRIPT, JS_SOURCE_URL } from '../console/capture.js';
import type { ConsolePane } from '../console/console-pane.js';

/**
 * Renders panels into the sandboxed `#preview` iframe (no allow-same-origin: the bin gets an opaque
 * origin and cannot touch the editor's document, storage or key). srcdoc rather than a URL, so the
 * preview needs no round trip and works with unsaved code.
 */
export function renderPreview(
  frame: HTMLIFrameElement,
  panels: Panels,
  consolePane: ConsolePane,
  errors: string[] = [],
  /** For a saved bin, its script naming it in calls to /endpoint/ (src/shared/bin-claim.ts). */
  claim = '',
): void {
  consolePane.clear();
  // Loops guarded as on output pages; then naming the pane's script lets the console give errors in the
  // pane's own line numbers.
  const javascript = protectLoops(panels.javascript);
  const named = panels.html.includes('%code%') || javascript.trim() === ''
    ? { ...panels, javascript }
    : { ...panels, javascript: `${javascript}\n//# sourceURL=${JS_SOURCE_URL}` };
  frame.srcdoc = assemble(named, { prelude: claim ? `${CAPTURE_SCRIPT}\n${claim}` : CAPTURE_SCRIPT, errors });
}
