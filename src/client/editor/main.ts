import type { Panels } from '../../shared/assemble.js';
import { EDITOR_DATA_ID, type EditorData } from '../../shared/editor-data.js';
import { processorsOf } from '../../shared/processors.js';
import { binClaimScript, NEW_BIN_CLAIM } from '../../shared/bin-claim.js';
import { wireAddLibrary } from './add-library.js';
import { createCodePanes } from './code-panes.js';
import { wireConsoleInput } from '../console/console-input.js';
import { createMockPane } from '../mock-pane/mock-pane.js';
import { previewTokens } from '../mock-pane/preview-token.js';
import { createConsolePane } from '../console/console-pane.js';
import { debounce } from '../common/debounce.js';
import { withKey } from '../saving/key-dialog.js';
import { createLive } from './live.js';
import { wirePaneToggles } from './layout.js';
import { renderPreview } from './preview.js';
import { createPanelCompiler, wireSelectors } from './processors.js';
import { createRevisionMenu } from '../saving/revisions.js';
import { wirePaneResizing } from './resize.js';
import { wireRunControls } from './run-controls.js';
import { postSave, wireWithMocks } from '../saving/save.js';
import { followPanes, showShare, wireCopyButtons, wireShareToggle } from '../saving/share.js';
import { wireShortcuts } from './shortcuts.js';
import { wireToolbar } from './toolbar.js';
import { say } from '../common/status.js';
import { wireTemplateButton } from '../saving/template.js';
import { apiKey, draftKey, dropDraft, keepDraft, loadDraft, samePanels, sameProcessors } from '../common/storage.js';

const data = JSON.parse(document.getElementById(EDITOR_DATA_ID)!.textContent!) as EditorData;
// Resolved once: a save changes the address (and its depth), not the server's root.
const root = new URL(data.root, location.href);
const outputUrl = (bin: string, rev: number) => new URL(`${bin}/${rev}`, root).href;
const editUrl = (bin: string, rev: number) => new URL(`${bin}/${rev}/edit`, root).href;

// --- what is being edited: the revision it started from, and the code as the server has it
let bin = data.bin;
let rev = data.rev;
let saved: Panels = data.panels;
let savedProcessors = processorsOf(data.settings);
let draft = draftKey(bin, rev);

// --- panes, preview and console
const frame = document.getElementById('preview') as HTMLIFrameElement;
const consolePane = createConsolePane(frame);
const watch = data.watch === true;
const restored = watch ? undefined : loadDraft(draft);
const selectors = wireSelectors(data.settings, () => {
  panes.setLanguages(selectors.read());
  preview();
  keep();
  live.changed();
});
// A draft's preprocessors come back with its code (older drafts recorded none: the saved ones stand).
if (restored?.processors) selectors.write(restored.processors);
// The Mocks pane writes calls at the JavaScript's cursor and offers "Make a mock" beside selected JSON.
const mocks = createMockPane({
  root,
  readOnly: watch,
  code: () => ({
    insert: (make) => panes.insertAtCursor('javascript', make),
    language: () => selectors.read().javascript,
    selection: () => panes.selection()?.text,
  }),
});
const panes = createCodePanes(
  restored ?? saved,
  selectors.read(),
  () => {
    preview();
    keep();
    live.changed();
  },
  watch,
  [mocks.selectionAction],
);
const compilePanels = createPanelCompiler(root, () => apiKey.get());
const mockToken = previewTokens(root);
let shown = 0;
/**
 * Compiles what the panes hold and shows it, unless a newer render has started meanwhile; without the
 * JavaScript when auto-run is off and this render was not asked for.
 */
async function showPreview(panels: Panels, withJs = runControls.withJs()): Promise<void> {
  const turn = ++shown;
  const { panels: compiled, errors } = await compilePanels(withJs ? panels : { ...panels, javascript: '' }, selectors.read());
  const named = bin === null ? NEW_BIN_CLAIM : `${bin}/${rev}`;
  // With private mocks, the preview's calls carry a token for the claim (the frame has no cookie to show).
  const claim = binClaimScript(named, new URL('endpoint/', root).href, await mockToken(named));
  if (turn === shown) renderPreview(frame, compiled, consolePane, errors, claim);
}
const preview = debounce(() => void showPreview(panes.read()), 300);
const runControls = wireRunControls(() => {
  preview.cancel();
  void showPreview(panes.read(), true);
});
wireConsoleInput(frame, (code) => consolePane.echo(code));
// Unsaved code lives in localStorage until a save succeeds, so a crash, a reload or a failed save loses nothing.
const keep = debounce(() => {
  const now = panes.read();
  const processors = selectors.read();
  if (samePanels(now, saved) && sameProcessors(processors, savedProcessors)) dropDraft(draft);
  else keepDraft(draft, now, processors);
}, 300);
addEventListener('pagehide', () => keep.flush());
void showPreview(panes.read());

// --- live sharing: a saved bin's editor broadcasts; /:bin/watch follows read-only
const live = createLive({
  root,
  consolePane,
  read: () => ({ panels: panes.read(), processors: selectors.read() }),
  key: () => apiKey.get(),
  onRemote: watch
    ? (changed, processors) => {
        panes.write({ ...panes.read(), ...changed });
        if (processors) {
          selectors.write(processors);
          panes.setLanguages(processors);
        }
        preview();
      }
    : undefined,
});
if (bin !== null) live.follow(bin, saved, savedProcessors);
if (watch) {
  for (const id of ['save', 'clone', 'save-template', 'add-library']) document.getElementById(id)!.hidden = true;
  for (const menu of document.querySelectorAll<HTMLSelectElement>('select.processor')) menu.disabled = true;
}

wirePaneToggles(wirePaneResizing().refresh);
wireShortcuts();
wireAddLibrary(panes);
wireCopyButtons();
wireShareToggle();
wireTemplateButton({ root, read: () => ({ panels: panes.read(), processors: selectors.read() }) });
followPanes();
const menu = createRevisionMenu(root, bin, data.revisions, rev);
if (bin !== null && rev !== null) showShare(outputUrl(bin, rev), editUrl(bin, rev));
if (data.keyHint) {
  document.getElementById('key-hint')!.textContent = `${data.keyHint} Kept in this browser's storage and sent with saves.`;
}
// A server that saves nothing from anyone says so at once, rather than asking for a key that does not exist.
const readOnly = watch ? undefined : data.readOnly;
if (readOnly !== undefined) {
  for (const id of ['save', 'clone', 'save-template']) {
    const button = document.getElementById(id) as HTMLButtonElement;
    button.disabled = true;
    button.title = readOnly;
  }
  say(readOnly); // a restored draft's notice, below, takes its place: it has an action
}
// Once the toolbar holds what it will (share button, revisions, watch page's hidden buttons): it fits itself.
wireToolbar();

if (restored && !(samePanels(restored, saved) && sameProcessors(selectors.read(), savedProcessors))) {
  say(`Restored your unsaved changes from ${new Date(restored.kept).toLocaleString()}.`, 'info', {
    label: 'Discard them',
    run() {
      panes.write(saved);
      selectors.write(savedProcessors);
      panes.setLanguages(savedProcessors);
      dropDraft(draft);
      void showPreview(saved);
    },
  });
}

// --- saving
const saveButton = document.getElementById('save') as HTMLButtonElement;
const cloneButton = document.getElementById('clone') as HTMLButtonElement;
let saving = false;

/** Saves what is on screen as the next revision, or with `clone` as revision 1 of a new bin (then edited here). */
async function save(clone = false): Promise<void> {
  if (readOnly !== undefined) return say(readOnly);
  if (saving || watch) return;
  saving = true;
  saveButton.disabled = cloneButton.disabled = true;
  keep.flush();
  const panels = panes.read();
  const processors = selectors.read();
  try {
    const result = await withKey(root, (key) => postSave(root, clone ? null : bin, panels, processors, key));
    if (!result.ok) return say(`Not saved: ${result.error}. Your code is kept in this browser.`, 'error');
    if (result.bin !== bin) live.follow(result.bin, panels, processors);
    else live.saved(panels, processors);
    saved = panels;
    savedProcessors = processors;
    dropDraft(draft);
    bin = result.bin;
    rev = result.rev;
    draft = draftKey(bin, rev);
    keep(); // code typed while the save was on its way is a draft of the new revision
    history.replaceState(null, '', editUrl(bin, rev));
    document.title = `${bin}/${rev} · snippetkit`;
    showShare(outputUrl(bin, rev), editUrl(bin, rev));
    menu.update(bin, rev, { rev, created: new Date().toISOString() });
    say((clone ? `Cloned into ${bin}, revision ${rev}` : `Saved revision ${rev}`) + withMocks(result.mocks));
  } finally {
    saving = false;
    saveButton.disabled = cloneButton.disabled = false;
  }
}

/** What a save with the "With mocks" box ticked says of them; just the full stop without the box. */
function withMocks(count: number | undefined): string {
  if (count === undefined) return '.';
  if (count === 0) return ': the code calls no /endpoint/…, so no mocks went with it.';
  return count === 1 ? ', with the 1 mock its code calls.' : `, with the ${count} mocks its code calls.`;
}

wireWithMocks(root);
saveButton.addEventListener('click', () => void save());
cloneButton.addEventListener('click', () => void save(true));
// Capture phase, so the browser's "Save page" never opens, even from inside an editor.
addEventListener(
  'keydown',
  (event) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
      event.preventDefault();
      void save();
    }
  },
  true,
);
