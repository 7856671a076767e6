import { json } from '@codemirror/lang-json';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import { basicSetup, EditorView } from 'codemirror';
import { findJsonError } from '../../../shared/json-check.js';

/** Valid JSON, or where it first goes wrong, 1-based as an editor shows it. */
export type JsonState = { valid: true } | { valid: false; line: number; column: number; message: string };

export type JsonEditor = {
  text(): string;
  /** Replaces the text (and reports its state through onState). */
  setText(text: string): void;
  state(): JsonState;
};

function check(doc: Text): { state: JsonState; diagnostic?: Diagnostic } {
  const error = findJsonError(doc.toString());
  if (!error) return { state: { valid: true } };
  const line = doc.lineAt(error.pos);
  const state: JsonState = { valid: false, line: line.number, column: error.pos - line.from + 1, message: error.message };
  // An error at the very end still needs a character-wide mark to be seen.
  const to = Math.min(error.pos + 1, doc.length);
  return { state, diagnostic: { from: Math.min(error.pos, to), to, severity: 'error', message: error.message } };
}

/**
 * CodeMirror with JSON highlighting in `parent`. Every change is checked at once and reported
 * through `onState` (the form turns its save button on and off with it); the same check marks
 * the error in the editor.
 */
export function createJsonEditor(parent: HTMLElement, onState: (state: JsonState) => void): JsonEditor {
  let current: JsonState = { valid: true };
  const report = (doc: Text) => {
    current = check(doc).state;
    onState(current);
  };
  const view = new EditorView({
    parent,
    extensions: [
      basicSetup,
      json(),
      lintGutter(),
      linter((editor) => {
        const { diagnostic } = check(editor.state.doc);
        return diagnostic ? [diagnostic] : [];
      }, { delay: 200 }),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': 'JSON data' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) report(update.state.doc);
      }),
    ],
  });
  report(view.state.doc);
  return {
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    state: () => current,
  };
}
