import { Compartment, EditorState } from '@codemirror/state';
import { basicSetup, EditorView } from 'codemirror';
import type { Panels } from '../../shared/assemble.js';
import { PANELS, type ProcessorChoice } from '../../shared/processors.js';
import { skipTypedCloseTag } from './close-tag-skip.js';
import { readableHighlighting } from './highlight.js';
import { languageOf } from './languages.js';

export type PanelName = keyof Panels;

export type CodePanes = {
  /** The text of the three panes. */
  read(): Panels;
  /** Replaces the text of all three panes (without firing onChange). */
  write(panels: Panels): void;
  focus(panel: PanelName): void;
  /** Inserts `text` at offset `at` of a pane as one undoable edit (fires onChange). */
  insert(panel: PanelName, at: number, text: string): void;
  /** Switches each pane to the language of its preprocessor (Markdown, Pug, LESS, ...). */
  setLanguages(choice: ProcessorChoice): void;
};

/**
 * Three CodeMirror editors in the elements `#code-html`, `#code-css`, `#code-javascript`, in the
 * languages of `processors`; read-only to watch.
 */
export function createCodePanes(
  initial: Panels,
  processors: ProcessorChoice,
  onChange: () => void,
  readOnly = false,
): CodePanes {
  let quiet = false;
  const notify = EditorView.updateListener.of((update) => {
    if (update.docChanged && !quiet) onChange();
  });
  const views = {} as Record<PanelName, EditorView>;
  // Each pane's language sits in a compartment, so a preprocessor choice swaps it without a new editor.
  const languages = {} as Record<PanelName, Compartment>;
  const shown = { ...processors };
  for (const name of PANELS) {
    languages[name] = new Compartment();
    views[name] = new EditorView({
      doc: initial[name],
      extensions: [
        basicSetup,
        // Not a fallback: basicSetup's default colours then stand aside.
        readableHighlighting,
        languages[name].of(languageOf(processors[name])),
        // Panes are narrow side by side: wrap rather than scroll sideways.
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': name }),
        EditorState.readOnly.of(readOnly),
        name === 'html' ? skipTypedCloseTag : [],
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
        for (const name of PANELS) {
          const view = views[name];
          view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: panels[name] } });
        }
      } finally {
        quiet = false;
      }
    },
    focus: (name) => views[name].focus(),
    insert: (name, at, text) => views[name].dispatch({ changes: { from: at, insert: text }, userEvent: 'input' }),
    setLanguages(choice) {
      for (const name of PANELS) {
        if (shown[name] === choice[name]) continue;
        shown[name] = choice[name];
        views[name].dispatch({ effects: languages[name].reconfigure(languageOf(choice[name])) });
      }
    },
  };
}
