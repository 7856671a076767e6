// The mock server's page: a workspace of three regions (the endpoints, the one open, the requests
// arriving), routed by the URL's hash (#new, #endpoint/<name>), so every server URL stays relative.
import { endpointUrl, findEndpointBase } from './common/api.js';
import { byId } from './common/dom.js';
import { createEndpointView } from './endpoint-view.js';
import { createListView } from './list-view.js';
import { createRegionTabs } from './region-tabs.js';
import { createScenariosPanel } from './scenarios-panel.js';
import { followServer } from './server-events.js';
import { createUnmatchedLog, type Draft } from './unmatched-log.js';

const listSection = byId('list-view');
const endpointSection = byId('endpoint-view');
const requestLog = byId('log');
const unmatchedSection = byId('unmatched');
const list = createListView();
const endpoint = createEndpointView();
const tabs = createRegionTabs();
const scenarios = createScenariosPanel();
let draft: Draft | undefined;
const unmatched = createUnmatchedLog((made) => {
  draft = made;
  if (location.hash === '#new') route();
  else location.hash = '#new';
});

/** The right-hand region: the open endpoint's requests, or else those no endpoint answered. */
function showTraffic(): void {
  unmatchedSection.hidden = !requestLog.hidden;
  tabs.name(requestLog.hidden ? 'Unmatched' : 'Requests');
}

function route(): void {
  const hash = location.hash.slice(1);
  const opened = /^endpoint\/(.+)$/.exec(hash);
  listSection.hidden = hash === 'new' || opened !== null;
  endpointSection.hidden = !listSection.hidden;
  tabs.name(listSection.hidden ? 'Endpoint' : 'Overview', 'main');
  if (hash === 'new') {
    document.title = 'New endpoint · snippetkit mocks';
    const start = draft;
    draft = undefined;
    endpoint.openNew(start && { name: start.name, path: start.path, methods: [start.method], data: start.data });
    list.select(undefined);
    tabs.show('main');
  } else if (opened) {
    let name = opened[1]!;
    try {
      name = decodeURIComponent(name);
    } catch {
      // a hand-typed hash with a stray %: take it as it is
    }
    document.title = `${name} · snippetkit mocks`;
    list.select(name);
    void endpoint.open(name).then(showTraffic);
  } else {
    document.title = 'snippetkit mocks';
    endpoint.close();
    requestLog.hidden = true;
    list.select(undefined);
    // Back from a delete or a save, the overview is drawn fresh rather than when the stream says so.
    void list.load();
  }
  showTraffic();
  byId('center').scrollTo(0, 0);
}

// The endpoints' base first: every URL the page hands out is drawn from it.
void findEndpointBase().then(() => {
  for (const span of document.querySelectorAll('.endpoint-base')) span.textContent = endpointUrl('');
  window.addEventListener('hashchange', route);
  route();
  if (location.hash.length > 1) void list.load();
  void unmatched.load();
  void scenarios.load();
  followServer({
    revised: () => {
      void list.load();
      void scenarios.load();
    },
    // A request may have moved a scenario's state.
    called: (endpoints) => {
      list.update(endpoints);
      void scenarios.load();
    },
    unmatched: () => unmatched.changed(),
    reconnected: () => {
      void list.load();
      void scenarios.load();
      void unmatched.load();
    },
  });
});
