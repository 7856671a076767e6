// "My bins" (templates/list.html): each row's Delete button asks in a dialog, then deletes the whole bin
// through the API (DELETE api/:bin?all=true, relative, so it works behind a path prefix) with the
// browser's session cookie, and takes the row away. Without this script the page still lists and sorts.

const dialog = document.querySelector<HTMLDialogElement>('#confirm-delete')!;
const statusLine = document.querySelector<HTMLElement>('#list-status')!;
let asked: HTMLButtonElement | undefined;

document.addEventListener('click', (event) => {
  const button = (event.target as Element).closest<HTMLButtonElement>('button.delete');
  if (!button) return;
  asked = button;
  const bin = button.closest('tr')!.dataset.bin!;
  document.querySelector('#confirm-delete-bin')!.textContent = bin;
  document.querySelector('#confirm-delete-revisions')!.textContent = button.dataset.revisions ?? 'revisions';
  dialog.returnValue = '';
  dialog.showModal();
});

dialog.addEventListener('close', () => {
  const button = asked;
  asked = undefined;
  if (!button) return;
  if (dialog.returnValue !== 'delete') return button.focus();
  void remove(button);
});

async function remove(button: HTMLButtonElement): Promise<void> {
  const row = button.closest('tr')!;
  const bin = row.dataset.bin!;
  button.disabled = true;
  statusLine.textContent = `Deleting ${bin}…`;
  let error: string | undefined;
  try {
    const res = await fetch(`api/${encodeURIComponent(bin)}?all=true`, { method: 'DELETE', headers: { Accept: 'application/json' } });
    // A bin someone else deleted first is gone all the same.
    if (!res.ok && res.status !== 404) error = ((await res.json().catch(() => ({}))) as { error?: string }).error ?? `status ${res.status}`;
  } catch {
    error = 'the server did not answer';
  }
  if (error) {
    button.disabled = false;
    statusLine.textContent = `${bin} was not deleted: ${error}`;
    button.focus();
    return;
  }
  // Focus moves to the next row's button (or the previous, or the filter), never lost with the row.
  const next = (row.nextElementSibling ?? row.previousElementSibling)?.querySelector<HTMLElement>('button.delete');
  const tbody = row.parentElement!;
  row.remove();
  countDown();
  statusLine.textContent = `Deleted ${bin}.`;
  if (tbody.children.length === 0) tbody.closest('table')!.insertAdjacentHTML('afterend', '<p class="empty">No bins left on this page. <a href="list">Show the list again</a></p>');
  (next ?? document.querySelector<HTMLElement>('input[type=search]'))?.focus();
}

/** The pager's "N bins", one fewer. */
function countDown(): void {
  const total = document.querySelector('nav.pages .total');
  const n = Number(total?.textContent?.replace(/[^\d]/g, '')) - 1;
  if (total && n >= 0) total.textContent = `${n.toLocaleString('en')} ${n === 1 ? 'bin' : 'bins'}`;
}
