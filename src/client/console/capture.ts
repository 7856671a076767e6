import { captureScript } from '../../shared/capture.js';

/** The name of the preview's JavaScript pane script, so errors can give the pane's own line numbers. */
export const JS_SOURCE_URL = 'javascript.js';

/** Runs first inside the preview: the sandboxed preview can reach nothing of the editor but postMessage. */
export const CAPTURE_SCRIPT = captureScript("function (record) { parent.postMessage(record, '*'); }", JS_SOURCE_URL);
