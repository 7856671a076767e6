import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { basicSetup, EditorView } from 'codemirror';
import type { Panels } from '../shared/assemble.js';

export type PanelName = keyof Panels;
export const PANEL_NAMES: PanelName[] = ['html', 'css', 'javascript'];

/** Each pane's language sits in a compartment so a preprocessor choice (issue 7) can swap it. */
const LANGUAGES: Record<PanelName, () => Extension> = { html, css, javascript };

export type CodePanes = {
  /** The text of the three panes. */
  read(): Panels;
  /** Replaces the text of all three panes (without firing onChange). */
  write(panels: Panels): void;
  focus(panel: PanelName): void;
};

/** Three CodeMirror editors in the elements `#code-html`, `#code-css`, `#code-javascript`; read-only to watch. */
export function createCodePanes(initial: Panels, onChange: () => void, readOnly = false): CodePanes {
  let quiet = false;
  const notify = EditorView.updateListener.of((update) => {
    if (update.docChanged && !quiet) onChange();
  });
  const views = {} as Record<PanelName, EditorView>;
  for (const name of PANEL_NAMES) {
    const language = new Compartment();
    views[name] = new EditorView({
      doc: initial[name],
      extensions: [
        basicSetup,
        language.of(LANGUAGES[name]()),
        // Panes are narrow side by side: wrap rather than scroll sideways.
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': name }),
        EditorState.readOnly.of(readOnly),
        notify,
      ],
      parent: document.getElementById(`code-${name}`)!,
    });
  }
  return {
    read: () => ({
      html: views.html.state.doc.toString(),
      css: views.css.state.doc.toString(),
      javascript: views.javascript.state.doc.toString(),
    }),
    write(panels) {
      quiet = true;
      try {
        for (const name of PANEL_NAMES) {
          const view = views[name];
          view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: panels[name] } });
        }
      } finally {
        quiet = false;
      }
    },
    focus: (name) => views[name].focus(),
  };
}
