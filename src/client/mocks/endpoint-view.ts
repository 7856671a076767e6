import {
  addEndpoint,
  deleteEndpoint,
  endpointUrl,
  getEndpoint,
  replaceEndpoint,
  type EndpointInput,
  type EndpointRecord,
} from './common/api.js';
import { copyButton } from './common/copy.js';
import { byId } from './common/dom.js';
import { createEndpointForm } from './form/endpoint-form.js';
import { followLog } from './live-log.js';
import { createTryIt } from './try-it.js';
import { createTryInBin } from './try-in-bin.js';
import { createRecentBins } from './bin-calls.js';
import { sourceFile } from './source-badge.js';
import { createConnectionsPanel } from './connections-panel.js';

export type EndpointView = {
  /** The form for a new endpoint, empty or started from `start`. */
  openNew(start?: Partial<EndpointInput>): void;
  open(name: string): Promise<void>;
  /** Leaving the view: stops following the request log. */
  close(): void;
};

/** #endpoint-view: one endpoint's links, form, "Try it" and live log; or the form alone for a new one. */
export function createEndpointView(): EndpointView {
  const title = byId('endpoint-title');
  const existingOnly = ['links', 'try-it', 'log', 'delete'].map((id) => byId(id));
  const formElement = byId('endpoint-form');
  const missing = byId('missing');
  const dialog = byId<HTMLDialogElement>('confirm-delete');
  const tryIt = createTryIt();
  const tryInBin = createTryInBin(tryIt);
  const recentBins = createRecentBins();
  const connections = createConnectionsPanel();
  let current: string | undefined;
  // Where the open endpoint answers under /endpoint/: its path, or its name when it has none.
  let route = '';
  // A WebSocket endpoint's URL is handed out as ws:// (wss:// behind TLS), as a client connects to it.
  let scheme = (url: string) => url;
  let stopLog: (() => void) | undefined;

  const form = createEndpointForm(async (input, existing) => {
    if (existing === undefined) {
      await addEndpoint(input);
      location.hash = `#endpoint/${encodeURIComponent(input.name)}`;
    } else {
      // A new path or new methods change where and how "Try it" calls.
      showLinks(await replaceEndpoint(input));
    }
  });
  copyButton(byId<HTMLButtonElement>('copy-url'), () => scheme(endpointUrl(route)));
  // The call "Try it" is set up to make: its method, parameters, query, headers and body.
  copyButton(byId<HTMLButtonElement>('copy-curl'), () => tryIt.curl());
  const showCurl = () => (byId('endpoint-curl').textContent = tryIt.curl());
  for (const type of ['input', 'change', 'click']) byId('try-it').addEventListener(type, showCurl);

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

  /** A file's endpoint is changed in the file: saving or deleting it here would be refused (409). */
  const showSource = (source: string | undefined) => {
    const note = byId('source-note');
    const reason = source ? `From ${sourceFile(source)}: change or delete it in that file.` : '';
    note.textContent = reason;
    note.hidden = !source;
    // inert: typing in the form would otherwise enable Save again
    byId('endpoint-form').inert = source !== undefined;
    for (const id of ['save', 'delete']) {
      const button = byId<HTMLButtonElement>(id);
      button.disabled = source !== undefined;
      button.title = reason;
    }
  };

  const showLinks = (record: EndpointRecord) => {
    route = record.path ?? record.name;
    scheme = record.kind === 'websocket' ? (url) => url.replace(/^http/, 'ws') : (url) => url;
    byId('endpoint-url').textContent = scheme(endpointUrl(route));
    tryIt.show(record);
    tryInBin.show(record);
    showCurl();
  };

  const close = () => {
    connections.close();
    recentBins.reset([]);
    stopLog?.();
    stopLog = undefined;
    current = undefined;
  };
  const show = (existing: boolean) => {
    for (const part of existingOnly) part.hidden = !existing;
  };

  return {
    openNew(start) {
      close();
      title.textContent = 'New endpoint';
      show(false);
      missing.hidden = true;
      formElement.hidden = false;
      showSource(undefined);
      form.reset(start);
      byId('name').focus();
    },
    async open(name) {
      close();
      current = name;
      title.textContent = name;
      show(false);
      // Nothing of the endpoint shown before stays on screen while this one loads, or if it is not there.
      formElement.hidden = true;
      missing.hidden = true;
      showSource(undefined);
      let record: EndpointRecord;
      try {
        record = await getEndpoint(name);
        if (current !== name) return; // the user moved on while it loaded
        form.fill(record);
      } catch (err) {
        if (current !== name) return;
        const said = (err as Error).message;
        byId('missing-text').textContent =
          `${said.charAt(0).toUpperCase()}${said.slice(1)}: it may have been deleted or renamed. Pick one from the list, or make a new one.`;
        missing.hidden = false;
        return;
      }
      formElement.hidden = false;
      showLinks(record);
      showSource(record.source);
      stopLog = followLog(name, recentBins);
      show(true);
      // A WebSocket or event-stream endpoint is tried with a client of its own: its connections instead.
      const streamed = record.kind === 'websocket' || record.kind === 'sse';
      byId('try-it').hidden = streamed;
      if (streamed) connections.open(name);
    },
    close,
  };
}
