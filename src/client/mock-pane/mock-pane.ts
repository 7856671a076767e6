import type { Extension } from '@codemirror/state';
import { fetchCall } from '../../shared/endpoint-call.js';
import { say } from '../common/status.js';
import { findMockServer, type MockServer } from './api.js';
import { wireMakeMock } from './make-mock.js';
import { callUrl, wireMockList, type CallTarget } from './pane.js';
import { makeMockAction } from './selection-action.js';

export type MockPaneOptions = {
  /** The bin server's root: the joint server's whoami is under it. */
  root: URL;
  /** The editor's code panes, asked only once the user acts (they are made after this pane). */
  code(): CallTarget & { selection(): string | undefined };
  /** A watch page: nothing is written into its panes. */
  readOnly: boolean;
};

export type MockPane = {
  /** The code panes' "Make a mock" beside selected JSON, once a mock server is found. */
  selectionAction: Extension;
};

/**
 * The editor's Mocks pane (`#pane-mocks`) and "Make a mock": finds the mock server of `snippetkit serve`
 * once, then lists its endpoints there; on `serve-bins` alone the pane says how to get mocks.
 */
export function createMockPane({ root, code, readOnly }: MockPaneOptions): MockPane {
  let server: MockServer | undefined;
  let open: ((json: string) => void) | undefined;
  const makeMock = (json: string) => open?.(json);

  void findMockServer(root).then((found) => {
    server = found;
    const list = wireMockList(found, { insert: (make) => code().insert(make), language: () => code().language() }, readOnly);
    if (!found) return;
    open = wireMakeMock(found, (name, path) => {
      list.reload();
      const url = callUrl(found, path);
      const insert = () => code().insert((place) => fetchCall(url, null, { ...place, language: code().language() }));
      say(`Made the mock ${name}: the bin's code can call ${url} now.`, 'info', readOnly ? undefined : { label: 'Insert a call', run: insert });
    });
    document.getElementById('make-mock')!.addEventListener('click', () => makeMock(code().selection() ?? ''));
  });

  return { selectionAction: makeMockAction(() => server !== undefined, makeMock) };
}
