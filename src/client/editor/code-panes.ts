import { ensureSyntaxTree } from '@codemirror/language';
import { Compartment, EditorState, EditorSelection, type Extension } from '@codemirror/state';
import { basicSetup, EditorView } from 'codemirror';
import type { Panels } from '../../shared/assemble.js';
import { PANELS, type ProcessorChoice } from '../../shared/processors.js';
import { skipTypedCloseTag } from './close-tag-skip.js';
import { readableHighlighting } from './highlight.js';
import { languageOf } from './languages.js';

export type PanelName = keyof Panels;

/** Where a pane's cursor is, for code about to be put there (the Mocks pane's calls). */
export type CursorPlace = {
  /** Inside an async function's body, by the pane's syntax tree (JavaScript, TypeScript, JSX). */
  inAsync: boolean;
  /** The cursor line's indentation. */
  indent: string;
  /** The last line of code before the cursor. */
  previous: string;
};

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunction', 'MethodDeclaration', 'Property']);

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
  /** The selected text of the pane focused last, when it has one. */
  selection(): { panel: PanelName; text: string } | undefined;
  /**
   * Puts `make(place)` at a pane's cursor, on a line of its own, as one undoable edit (fires onChange);
   * the cursor ends after it, in the focused pane.
   */
  insertAtCursor(panel: PanelName, make: (place: CursorPlace) => string): void;
};

/** Whether `pos` is in the body of an async function, by the syntax tree (none for CoffeeScript: false). */
function inAsyncFunction(state: EditorState, pos: number): boolean {
  const tree = ensureSyntaxTree(state, state.doc.length, 200);
  for (let node = tree?.resolveInner(pos, 0) ?? null; node; node = node.parent) {
    const body = node.getChild('Block');
    if (!FUNCTIONS.has(node.name) || !body || pos <= body.from || pos >= body.to) continue;
    return node.getChild('async') !== null;
  }
  return false;
}

/** Puts `make(place)` at the view's cursor on a line of its own, indented as the cursor's line. */
function insertLine(view: EditorView, make: (place: CursorPlace) => string): void {
  const { state } = view;
  const pos = state.selection.main.head;
  const line = state.doc.lineAt(pos);
  const before = line.text.slice(0, pos - line.from);
  const after = line.text.slice(pos - line.from);
  const indent = /^\s*/.exec(line.text)![0];
  let previous = before;
  for (let n = line.number - 1; previous.trim() === '' && n >= 1; n--) previous = state.doc.line(n).text;
  const text = make({ inAsync: inAsyncFunction(state, pos), indent, previous });
  const insert = `${before.trim() === '' ? '' : `\n${indent}`}${text}${after.trim() === '' ? '' : `\n${indent}`}`;
  const end = pos + insert.length - (after.trim() === '' ? 0 : indent.length + 1);
  view.dispatch({ changes: { from: pos, insert }, selection: EditorSelection.cursor(end), userEvent: 'input', scrollIntoView: true });
  view.focus();
}

/**
 * Three CodeMirror editors in the elements `#code-html`, `#code-css`, `#code-javascript`, in the
 * languages of `processors`; read-only to watch.
 */
export function createCodePanes(
  initial: Panels,
  processors: ProcessorChoice,
  onChange: () => void,
  readOnly = false,
  extensions: Extension[] = [],
): CodePanes {
  let quiet = false;
  const notify = EditorView.updateListener.of((update) => {
    if (update.docChanged && !quiet) onChange();
  });
  const views = {} as Record<PanelName, EditorView>;
  // Each pane's language sits in a compartment, so a preprocessor choice swaps it without a new editor.
  const languages = {} as Record<PanelName, Compartment>;
  const shown = { ...processors };
  let focused: PanelName = 'javascript';
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
        EditorView.domEventHandlers({ focus: () => void (focused = name) }),
        extensions,
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
    selection() {
      const { from, to } = views[focused].state.selection.main;
      return from === to ? undefined : { panel: focused, text: views[focused].state.sliceDoc(from, to) };
    },
    insertAtCursor: (name, make) => insertLine(views[name], make),
    setLanguages(choice) {
      for (const name of PANELS) {
        if (shown[name] === choice[name]) continue;
        shown[name] = choice[name];
        views[name].dispatch({ effects: languages[name].reconfigure(languageOf(choice[name])) });
      }
    },
  };
}
