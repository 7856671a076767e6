import type { Panels } from '../../shared/assemble.js';
import { PANELS, processorsOf, type ProcessorChoice } from '../../shared/processors.js';
import type { ConsolePane } from '../console/console-pane.js';
import { debounce } from '../common/debounce.js';

export type LiveOptions = {
  root: URL;
  consolePane: ConsolePane;
  /** What the editor holds now. */
  read(): { panels: Panels; processors: ProcessorChoice };
  key(): string | null;
  /** Watch pages: a broadcast changed a panel or the processors. */
  onRemote?(panels: Partial<Panels>, processors?: ProcessorChoice): void;
};

export type Live = {
  /** Starts following `bin` (after the first save of a new bin, or at once for a saved one). */
  follow(bin: string, sent: Panels, processors: ProcessorChoice): void;
  /** The panes changed: broadcast, debounced by 500 ms as JS Bin did. */
  changed(): void;
  /** A save succeeded (perhaps with a key this time): broadcasting may resume. */
  saved(panels: Panels, processors: ProcessorChoice): void;
};


/** Live sharing from the editor: broadcasts its changes and shows who watches and what remote pages log. */
export function createLive({ root, consolePane, read, key, onRemote }: LiveOptions): Live {
  let bin: string | null = null;
  let last: { panels: Panels; processors: string } | null = null;
  // Refused once (no write right): quiet until the next save, which may bring a key.
  let refused = false;
  const watching = document.getElementById('watchers')!;

  const send = debounce(() => {
    if (bin === null || last === null || refused) return;
    const now = read();
    const body: Record<string, unknown> = {};
    for (const name of PANELS) if (now.panels[name] !== last.panels[name]) body[name] = now.panels[name];
    const processors = JSON.stringify(now.processors);
    if (processors !== last.processors) body.processors = now.processors;
    if (Object.keys(body).length === 0) return;
    last = { panels: now.panels, processors };
    const token = key();
    void fetch(new URL(`api/${encodeURIComponent(bin)}/live`, root), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { Authorization: `token ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then(
      (res) => {
        if (res.status === 403) refused = true;
      },
      () => {},
    );
  }, 500);

  function listen(followed: string): void {
    const source = new EventSource(new URL(`${encodeURIComponent(followed)}/edit`, root));
    source.addEventListener('stats', (event) => {
      const { connections } = JSON.parse(event.data) as { connections: number };
      // This editor is one of the connections.
      const others = Math.max(0, connections - 1);
      watching.textContent = others === 1 ? '1 watching' : `${others} watching`;
      watching.hidden = false;
    });
    source.addEventListener('console', (event) => consolePane.showRemote(JSON.parse(event.data) as unknown[]));
    if (!onRemote) return;
    for (const name of PANELS) source.addEventListener(name, (event) => onRemote({ [name]: event.data }));
    source.addEventListener('processors', (event) => onRemote({}, processorsOf({ processors: JSON.parse(event.data) })));
  }

  return {
    follow(followed, sent, processors) {
      bin = followed;
      last = { panels: sent, processors: JSON.stringify(processors) };
      listen(followed);
    },
    changed: () => send(),
    saved(panels, processors) {
      refused = false;
      last = { panels, processors: JSON.stringify(processors) };
    },
  };
}
