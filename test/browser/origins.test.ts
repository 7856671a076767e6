import { expect } from 'chai';
import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { listen, type RunningServer as Listening } from '../../src/server/listen.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../mocks/server.js';
import { usePage } from './browser.js';

/**
 * A hostile page in a real Chromium, as a developer would visit it while the servers run: served
 * from 127.0.0.2, another origin than every page the gate allows (127.0.0.1 and localhost are).
 * The same page opened as http://localhost:PORT is a loopback page and must get through, so the
 * refusals below are the gate's, not the test's.
 */
const ATTACKER = `<!doctype html><meta charset="utf-8"><title>a page</title>
<meta name="referrer" content="no-referrer">
<iframe name="sink"></iframe><iframe name="sink2"></iframe>`;

async function startAttacker(host: string): Promise<Listening> {
  return listen(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(ATTACKER);
    },
    0,
    host,
  );
}

/** What a page's script gets from `fetch`: the answer's text, or the error that hid it. */
const tryFetch = (url: string, init: RequestInit = {}) =>
  `fetch(${JSON.stringify(url)}, ${JSON.stringify(init)}).then(async (r) => 'read ' + r.status + ' ' + (await r.text()), (e) => 'blocked ' + e.name)`;

/** Submits a form in the page into an iframe and waits for the answer to load there. */
const submitForm = (action: string, method: string, enctype: string, fields: Record<string, string>, target = 'sink') => `
  new Promise((resolve) => {
    const form = document.createElement('form');
    Object.assign(form, { action: ${JSON.stringify(action)}, method: ${JSON.stringify(method)}, enctype: ${JSON.stringify(enctype)}, target: ${JSON.stringify(target)} });
    for (const [name, value] of Object.entries(${JSON.stringify(fields)})) {
      const input = document.createElement('input');
      Object.assign(input, { type: 'hidden', name, value });
      form.append(input);
    }
    document.body.append(form);
    document.querySelector('iframe[name=${target}]').addEventListener('load', () => resolve('loaded'), { once: true });
    form.submit();
  })`;

describe('the Origins gate against a page in a real browser', function () {
  this.timeout(60_000);
  let attacker: Listening;
  let local: Listening;
  before(async () => {
    attacker = await startAttacker('127.0.0.2');
    local = await startAttacker('127.0.0.1');
  });
  after(async () => {
    await attacker.close(100);
    await local.close(100);
  });
  const t = usePage();

  describe('the mock server', () => {
    let server: TestMockServer;
    before(async () => {
      server = await startMockServer();
      await addEndpoint(server, { name: 'people', collection: true, data: [{ id: 1 }] });
      await addEndpoint(server, { name: 'hook', data: { ok: true } });
      await server.fetch('/endpoint/hook', { headers: { authorization: 'Bearer webhook-secret' } });
      await server.fetch('/endpoint/people', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":2}' });
    });
    after(() => server.close());

    async function untouched(): Promise<void> {
      expect(server.store.list().map((e) => e.record.name).sort()).to.deep.equal(['hook', 'people']);
      expect(server.store.get('hook')!.stats.requests.newestFirst()).to.have.length(1);
      expect(await (await server.fetch('/endpoint/people')).json()).to.deep.equal([{ id: 1 }, { id: 2 }]);
    }

    it('keeps a page on another origin from planting, resetting or reading anything', async () => {
      await t.page.goto(attacker.url);
      const api = `${server.url}/api`;
      const planted = JSON.stringify({ name: 'planted', data: 1 });
      const results = {
        textPlainPut: await t.page.evaluate(tryFetch(`${api}/endpoint/add`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: planted })),
        noCorsReset: await t.page.evaluate(tryFetch(`${api}/endpoint/people/reset`, { method: 'POST', mode: 'no-cors' })),
        noCorsClearLog: await t.page.evaluate(tryFetch(`${api}/endpoint/hook/requests`, { method: 'POST', mode: 'no-cors' })),
        jsonDelete: await t.page.evaluate(tryFetch(`${api}/endpoint/hook`, { method: 'DELETE' })),
        list: await t.page.evaluate(tryFetch(`${api}/endpoints`)),
        log: await t.page.evaluate(tryFetch(`${api}/endpoint/hook/requests`)),
        events: await t.page.evaluate(`new Promise((resolve) => {
          const source = new EventSource(${JSON.stringify(`${api}/endpoint/hook/events`)});
          source.onopen = () => { source.close(); resolve('open'); };
          source.onerror = () => { source.close(); resolve('error'); };
        })`),
        formReset: await t.page.evaluate(submitForm(`${api}/endpoint/people/reset`, 'POST', 'application/x-www-form-urlencoded', { a: '1' })),
        // text/plain forms send `name=value`: a JSON record when name and value are cut right.
        formPlant: await t.page.evaluate(submitForm(`${api}/endpoints/import`, 'POST', 'text/plain', { '{"endpoints":[{"name":"planted","data":1,"x":"': '"}]}' }, 'sink2')),
      };
      expect(results).to.deep.equal({
        textPlainPut: 'blocked TypeError',
        noCorsReset: 'read 0 ', // an opaque answer: the page learns nothing, and the 403 did nothing
        noCorsClearLog: 'read 0 ',
        jsonDelete: 'blocked TypeError',
        list: 'blocked TypeError',
        log: 'blocked TypeError',
        events: 'error',
        formReset: 'loaded',
        formPlant: 'loaded',
      });
      await untouched();
    });

    it('lets the same page opened on localhost manage endpoints (the control)', async () => {
      await t.page.goto(local.url.replace('127.0.0.1', 'localhost'));
      const list = (await t.page.evaluate(tryFetch(`${server.url}/api/endpoints`))) as string;
      expect(list).to.match(/^read 200 \{"success":true/);
      expect(list).to.include('"name":"hook"');
      const body = JSON.stringify({ name: 'local', data: 1 });
      const put = await t.page.evaluate(tryFetch(`${server.url}/api/endpoint/add`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body }));
      expect(put).to.match(/^read 201 /);
      await server.store.delete('local');
    });
  });

  describe('the bin server (open: anyone may save)', () => {
    let server: TestBinServer;
    let bin: string;
    before(async () => {
      server = await startBinServer(OPEN);
      bin = (await (await server.postForm('/api/save', { html: 'private notes' })).json()).url;
    });
    after(() => server.close());

    it('keeps a page on another origin from listing or deleting bins, and lets it read and save one', async () => {
      await t.page.goto(attacker.url);
      const api = `${server.url}/api`;
      const list = await t.page.evaluate(tryFetch(api));
      const remove = await t.page.evaluate(tryFetch(`${api}/${bin}`, { method: 'DELETE' }));
      const read = (await t.page.evaluate(tryFetch(`${api}/${bin}`))) as string;
      const form = await t.page.evaluate(submitForm(`${api}/save`, 'POST', 'application/x-www-form-urlencoded', { html: 'from a page' }));
      expect({ list, remove, form }).to.deep.equal({ list: 'blocked TypeError', remove: 'blocked TypeError', form: 'loaded' });
      expect(read).to.match(/^read 200 .*private notes/);
      expect((await server.fetch(`/api/${bin}`)).status).to.equal(200);
      // JS Bin's page-callable save: a new bin, not a change to the developer's.
      expect((await server.store.list()).length).to.equal(2);
    });
  });
});
