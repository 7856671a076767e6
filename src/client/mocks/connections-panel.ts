import { broadcast, listConnections } from './common/api.js';
import { byId, clock, el } from './common/dom.js';

/** How often the list is read again while a WebSocket or event-stream endpoint is open. */
const REFRESH_MS = 2000;

export type ConnectionsPanel = {
  /** Shows #connections for `name`, a WebSocket or event-stream endpoint, and keeps its list fresh. */
  open(name: string): void;
  /** Hides it and stops reading (another endpoint, or a REST one). */
  close(): void;
};

/**
 * #connections: the open connections of a WebSocket or event-stream endpoint and a box whose text is
 * sent to all of them (POST /api/endpoint/<name>/broadcast), each send then in the live log below.
 */
export function createConnectionsPanel(): ConnectionsPanel {
  const section = byId('connections');
  const list = byId('connection-list');
  const text = byId<HTMLTextAreaElement>('broadcast-text');
  const state = byId('broadcast-state');
  let current: string | undefined;
  let timer: number | undefined;

  const refresh = async () => {
    const name = current;
    if (name === undefined) return;
    try {
      const open = await listConnections(name);
      if (name !== current) return;
      list.replaceChildren(
        ...(open.length === 0
          ? [el('li', { class: 'hint' }, 'None open: connect a client to the URL above.')]
          : open.map(({ connection, ip, since }) => el('li', {}, `#${connection} from ${ip} since ${clock(since)}`))),
      );
    } catch (err) {
      state.textContent = `Could not list connections: ${(err as Error).message}`;
    }
  };

  byId('broadcast').addEventListener('click', async () => {
    if (current === undefined) return;
    state.textContent = 'Sending…';
    try {
      const sent = await broadcast(current, text.value);
      state.textContent = `Sent to ${sent} open connection${sent === 1 ? '' : 's'}`;
    } catch (err) {
      state.textContent = `Could not send: ${(err as Error).message}`;
    }
    void refresh();
  });

  return {
    open(name) {
      current = name;
      section.hidden = false;
      state.textContent = '';
      list.replaceChildren();
      void refresh();
      window.clearInterval(timer);
      timer = window.setInterval(() => void refresh(), REFRESH_MS);
    },
    close() {
      current = undefined;
      section.hidden = true;
      window.clearInterval(timer);
      timer = undefined;
    },
  };
}
