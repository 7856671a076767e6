import type { Panels } from '../../shared/assemble.js';
import { calledEndpoints, type RoutedEndpoint } from '../../shared/endpoint-calls.js';
import { findMockServer, listEndpoints, type MockServer } from '../mock-pane/api.js';

/**
 * The Save region's "with mocks" box (docs/bin-api.md, "A sketch with its API"): on a joint server
 * (`snippetkit serve`, which says so at `api/whoami`) a save may keep the endpoints the code calls with the
 * revision. The box shows only there; whether it is ticked is kept in this browser's storage.
 */

const STORED = 'snippetkit:save-with-mocks';
/** What a record answer adds to a record; a revision keeps what `mock export` writes. */
const READ_ONLY = new Set(['success', 'hits', 'lastCall', 'created', 'updated', 'url', 'source']);

/** The joint server's mock server, once `api/whoami` has named it (the Mocks pane's finder). */
let mockServer: MockServer | undefined;

function box(): HTMLInputElement | null {
  return document.getElementById('save-with-mocks') as HTMLInputElement | null;
}

function remembered(): boolean {
  try {
    return localStorage.getItem(STORED) === 'on';
  } catch {
    return false; // storage switched off: the box starts clear
  }
}

function remember(on: boolean): void {
  try {
    if (on) localStorage.setItem(STORED, 'on');
    else localStorage.removeItem(STORED);
  } catch {
    // full or switched off: nothing to keep it in
  }
}

/** Shows the box when the server is a joint one, ticked as it was last left in this browser. */
export function wireWithMocks(root: URL): void {
  const input = box();
  const label = input?.closest('label');
  if (!input || !label) return;
  input.checked = remembered();
  input.addEventListener('change', () => remember(input.checked));
  // A watch page hides Save and a server that saves nothing disables it (main.ts, before this): no box, nothing asked.
  const save = document.getElementById('save') as HTMLButtonElement | null;
  if (!save || save.hidden || save.disabled) {
    label.dataset.server = 'no-save';
    return;
  }
  void findMockServer(root).then((found) => {
    mockServer = found;
    label.hidden = found === undefined;
    label.dataset.server = found ? 'joint' : 'bins'; // what the answer said, once it has come
  });
}

/** Whether the next save carries mocks: the box is shown and ticked. */
export function savingWithMocks(): boolean {
  const input = box();
  return mockServer !== undefined && input !== null && input.checked && !input.closest('label')!.hidden;
}

/**
 * What the save's `mocks` field holds: the records of the endpoints the html and javascript call
 * (`/endpoint/…`), as the mock API answers them; none when they call none. Throws an Error saying what failed.
 */
export async function mocksField(panels: Panels): Promise<Record<string, unknown>[]> {
  const server = mockServer!;
  const endpoints: Partial<RoutedEndpoint>[] = await listEndpoints(server);
  const routed = endpoints.filter((e): e is RoutedEndpoint => typeof e.name === 'string' && typeof e.path === 'string');
  const { names } = calledEndpoints([panels.html, panels.javascript], routed);
  const records = await Promise.all(names.map((name) => readJson(new URL(`endpoint/${encodeURIComponent(name)}`, server.api))));
  return records.map((record) => Object.fromEntries(Object.entries(record).filter(([key]) => !READ_ONLY.has(key))));
}

async function readJson(url: URL): Promise<Record<string, unknown>> {
  const res = await fetch(url, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new Error(typeof body.message === 'string' ? body.message : `the mock server answered ${res.status}`);
  return body;
}
