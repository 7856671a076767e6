import { addEndpoint, deleteEndpoint, endpointUrl, getEndpoint, replaceEndpoint } from './api.js';
import { copyButton } from './copy.js';
import { byId } from './dom.js';
import { createEndpointForm } from './endpoint-form.js';
import { followLog } from './live-log.js';
import { createTryIt } from './try-it.js';

export type EndpointView = {
  openNew(): void;
  open(name: string): Promise<void>;
  /** Leaving the view: stops following the request log. */
  close(): void;
};

/** A shell word: single quotes, with any single quote closed, escaped and reopened. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

export const curlCommand = (name: string): string => `curl -i ${quote(endpointUrl(name))}`;

/** #endpoint-view: one endpoint's links, form, "Try it" and live log; or the form alone for a new one. */
export function createEndpointView(): EndpointView {
  const title = byId('endpoint-title');
  const existingOnly = ['links', 'try-it', 'log', 'delete'].map((id) => byId(id));
  const dialog = byId<HTMLDialogElement>('confirm-delete');
  const tryIt = createTryIt();
  let current: string | undefined;
  let stopLog: (() => void) | undefined;

  const form = createEndpointForm(async (input, existing) => {
    if (existing === undefined) {
      await addEndpoint(input);
      location.hash = `#endpoint/${encodeURIComponent(input.name)}`;
    } else {
      await replaceEndpoint(input);
    }
  });
  copyButton(byId<HTMLButtonElement>('copy-url'), () => endpointUrl(current ?? ''));
  copyButton(byId<HTMLButtonElement>('copy-curl'), () => curlCommand(current ?? ''));

  byId('delete').addEventListener('click', () => {
    byId('delete-name').textContent = current ?? '';
    dialog.returnValue = '';
    dialog.showModal();
  });
  dialog.addEventListener('close', async () => {
    if (dialog.returnValue !== 'delete' || current === undefined) return;
    try {
      await deleteEndpoint(current);
      location.hash = '#';
    } catch (err) {
      byId('saved').textContent = `Could not delete: ${(err as Error).message}`;
    }
  });

  const close = () => {
    stopLog?.();
    stopLog = undefined;
    current = undefined;
  };
  const show = (existing: boolean) => {
    for (const part of existingOnly) part.hidden = !existing;
  };

  return {
    openNew() {
      close();
      title.textContent = 'New endpoint';
      show(false);
      form.reset();
      byId('name').focus();
    },
    async open(name) {
      close();
      current = name;
      title.textContent = name;
      show(false);
      try {
        const record = await getEndpoint(name);
        if (current !== name) return; // the user moved on while it loaded
        form.fill(record);
      } catch (err) {
        title.textContent = (err as Error).message;
        return;
      }
      byId('endpoint-url').textContent = endpointUrl(name);
      byId('endpoint-curl').textContent = curlCommand(name);
      tryIt.show(name);
      stopLog = followLog(name);
      show(true);
    },
    close,
  };
}
