import { EDITOR_PANES, panesQuery, type EditorPane } from '../../shared/panel-list.js';

/** The share box's fields: the output, the editor with the panes open now, and two ways to embed. */
let shared: { outputUrl: string; editUrl: string } | undefined;

/** The panes open now, as the pane sections show them. */
function openPanes(): EditorPane[] {
  const open = document.querySelectorAll<HTMLElement>('.pane[data-pane]:not([hidden])');
  return [...open].map((pane) => pane.dataset.pane as EditorPane).filter((pane) => EDITOR_PANES.includes(pane));
}

function setField(id: string, value: string): void {
  (document.getElementById(id) as HTMLInputElement).value = value;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function render(): void {
  if (!shared) return;
  const query = panesQuery(openPanes());
  const withPanes = (url: string) => (query ? `${url}?${query}` : url);
  const embedUrl = withPanes(`${shared.outputUrl}/embed`);
  const scriptUrl = new URL('../../static/embed.js', shared.outputUrl + '/').href;
  setField('share-output', shared.outputUrl);
  setField('share-edit', withPanes(shared.editUrl));
  setField(
    'share-embed',
    `<iframe src="${escapeAttribute(embedUrl)}" title="snippetkit" style="width:100%;height:300px;border:1px solid #ddd"></iframe>`,
  );
  // JS Bin's form: a link that its script turns into the frame, and that stays a link where scripts do not run.
  setField(
    'share-embed-link',
    `<a class="jsbin-embed" href="${escapeAttribute(embedUrl)}">snippetkit</a><script src="${escapeAttribute(scriptUrl)}"></script>`,
  );
}

/** Shows the output and edit URLs of a saved revision in the `#share` box, with embed code for it. */
export function showShare(outputUrl: string, editUrl: string): void {
  shared = { outputUrl, editUrl };
  render();
  const toggle = document.getElementById('share-toggle')!;
  toggle.hidden = false;
  toggle.textContent = 'Share'; // a new revision's links are not copied yet
  openShare(true);
}

/** Opens or folds the share box; the toolbar's Share button says which and brings it back. */
function openShare(open: boolean): void {
  document.getElementById('share')!.hidden = !open;
  document.getElementById('share-toggle')!.setAttribute('aria-expanded', String(open));
}

/** The toolbar's Share button folds the box away and opens it again. */
export function wireShareToggle(): void {
  const toggle = document.getElementById('share-toggle')!;
  toggle.addEventListener('click', () => openShare(toggle.getAttribute('aria-expanded') !== 'true'));
}

/** The links follow the panes: whatever opens or closes one (a button, a shortcut) sets its `hidden`. */
export function followPanes(): void {
  const observer = new MutationObserver(render);
  for (const pane of document.querySelectorAll('.pane[data-pane]')) observer.observe(pane, { attributeFilter: ['hidden'] });
}

/**
 * Buttons with `data-copy="<input id>"` copy that input's value. A copy inside the share box is what the
 * box was for: it folds away, and its toolbar button says "Shared ✓" and holds the focus, to open it again.
 * When the clipboard refuses, the box stays, with the text selected for the keyboard's copy.
 */
export function wireCopyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const input = document.getElementById(button.dataset.copy!) as HTMLInputElement;
      const copied = await copy(input);
      if (copied && button.closest('#share')) {
        const toggle = document.getElementById('share-toggle')!;
        toggle.textContent = 'Shared ✓';
        openShare(false);
        toggle.focus();
        return;
      }
      button.textContent = copied ? 'Copied' : 'Select and copy';
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    });
  }
}

async function copy(input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    // No clipboard API over plain http from another machine (not a secure context): the old way.
    input.select();
    return document.execCommand('copy');
  }
}
