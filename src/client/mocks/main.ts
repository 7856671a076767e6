// The mock server's page: endpoints listed, added, edited and deleted, and their calls watched live.
// One page, routed by the URL's hash (#new, #endpoint/<name>), so every server URL stays relative.
import { byId } from './common/dom.js';
import { createEndpointView } from './endpoint-view.js';
import { createListView } from './list-view.js';

const listSection = byId('list-view');
const endpointSection = byId('endpoint-view');
const list = createListView();
const endpoint = createEndpointView();

function route(): void {
  const hash = location.hash.slice(1);
  const opened = /^endpoint\/(.+)$/.exec(hash);
  listSection.hidden = hash === 'new' || opened !== null;
  endpointSection.hidden = !listSection.hidden;
  if (hash === 'new') {
    document.title = 'New endpoint · snippetkit mocks';
    endpoint.openNew();
  } else if (opened) {
    let name = opened[1]!;
    try {
      name = decodeURIComponent(name);
    } catch {
      // a hand-typed hash with a stray %: take it as it is
    }
    document.title = `${name} · snippetkit mocks`;
    void endpoint.open(name);
  } else {
    document.title = 'snippetkit mocks';
    endpoint.close();
    void list.load();
  }
  window.scrollTo(0, 0);
}

window.addEventListener('hashchange', route);
route();
