import { serverEventsUrl, type ServerSummary } from './common/api.js';

export type ServerListeners = {
  /** Endpoints were added, changed or removed (by anyone). */
  revised(): void;
  /** Endpoints were called: their new hit counts and last calls. */
  called(endpoints: ServerSummary['endpoints']): void;
  /** Requests no endpoint answered came. */
  unmatched(): void;
  /** The stream came back after a drop: anything may have changed meanwhile. */
  reconnected(): void;
};

/** Follows GET /api/events for the page's life; EventSource reconnects by itself after a drop. */
export function followServer(listeners: ServerListeners): void {
  const source = new EventSource(serverEventsUrl());
  let revision: number | undefined;
  let opened = false;
  source.addEventListener('summary', (event) => {
    const summary = JSON.parse((event as MessageEvent<string>).data) as ServerSummary;
    if (revision === undefined) {
      // The first summary of a connection: a baseline, or after a drop, a reason to look again.
      revision = summary.revision;
      if (opened) listeners.reconnected();
      opened = true;
      return;
    }
    if (summary.revision !== revision) {
      revision = summary.revision;
      listeners.revised();
    }
    if (summary.endpoints.length > 0) listeners.called(summary.endpoints);
    if (summary.unmatched !== undefined) listeners.unmatched();
  });
  source.addEventListener('error', () => (revision = undefined));
}
