import { EditorView } from 'codemirror';

/**
 * Typing a closing tag the editor already put there skips over it. The HTML mode inserts `</button>`
 * as soon as `<button>` is typed; someone who types the closing tag anyway (as most do, from habit)
 * got `</button></button>`. When `>` ends a typed `</name` right before that same `</name>`, the typed
 * part goes and the cursor lands after the tag that was there, as closeBrackets does for `)`.
 */
export const skipTypedCloseTag = EditorView.inputHandler.of((view, from, to, text) => {
  if (text !== '>' || from !== to || view.state.readOnly) return false;
  const before = view.state.doc.sliceString(Math.max(0, from - 64), from);
  const name = /<\/([A-Za-z][\w:.-]*)$/.exec(before)?.[1];
  if (name === undefined) return false;
  const tag = `</${name}>`;
  if (view.state.doc.sliceString(from, from + tag.length) !== tag) return false;
  const start = from - tag.length + 1;
  view.dispatch({
    changes: { from: start, to: from },
    selection: { anchor: start + tag.length },
    userEvent: 'input.type',
    scrollIntoView: true,
  });
  return true;
});
