import { StateField, type EditorState, type Extension } from '@codemirror/state';
import { showTooltip, type Tooltip } from '@codemirror/view';
import { MAX_MOCK_JSON, mockableJson } from '../../shared/endpoint-call.js';

function button(choose: () => void): HTMLElement {
  const dom = document.createElement('button');
  dom.type = 'button';
  dom.className = 'make-mock-action';
  dom.textContent = 'Make a mock';
  dom.title = 'Serve this JSON from an endpoint of the mock server';
  // The selection stays where it is: the editor keeps the focus until the click.
  dom.addEventListener('mousedown', (event) => event.preventDefault());
  dom.addEventListener('click', choose);
  const holder = document.createElement('div');
  holder.className = 'make-mock-tooltip';
  holder.append(dom);
  return holder;
}

/**
 * A code pane's context action: while its one selection parses as a JSON object or array (and `enabled()`,
 * a mock server is there), a "Make a mock" button floats beside it and hands the text to `choose`.
 */
export function makeMockAction(enabled: () => boolean, choose: (text: string) => void): Extension {
  const tooltips = (state: EditorState): readonly Tooltip[] => {
    const range = state.selection.main;
    if (range.empty || state.selection.ranges.length > 1 || range.to - range.from > MAX_MOCK_JSON || !enabled()) return [];
    const text = state.sliceDoc(range.from, range.to);
    if (mockableJson(text) === undefined) return [];
    const above = range.head === range.from;
    return [{ pos: range.head, above, strictSide: false, arrow: true, create: () => ({ dom: button(() => choose(text)) }) }];
  };
  return StateField.define<readonly Tooltip[]>({
    create: tooltips,
    // Parsed again only when the selection or the text moved, not on every transaction.
    update: (shown, tr) => (tr.docChanged || tr.selection ? tooltips(tr.state) : shown),
    provide: (field) => showTooltip.computeN([field], (state) => state.field(field)),
  });
}
