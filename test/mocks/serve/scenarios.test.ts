import { expect } from 'chai';
import { CHECKOUT } from '../checkout.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

// Stateful scenarios (docs/mock-api.md, "Scenarios") over real HTTP on the real server.

describe('stateful scenarios over HTTP', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer();
  });
  afterEach(() => server.close());

  const call = async (path: string, method = 'GET') => {
    const res = await server.fetch(`/endpoint/${path}`, { method });
    return [res.status, await res.json()];
  };
  const scenarios = async () => (await server.fetch('/api/scenarios')).json();
  const put = (body: unknown) => server.putJson('/api/scenarios', body);

  it('walks the checkout: empty cart, item added, paid, each answer chosen by the state', async () => {
    for (const record of CHECKOUT) await addEndpoint(server, record);
    expect(await scenarios(), 'listed at start before any request').to.deep.equal({
      success: true,
      scenarios: { checkout: 'start' },
      states: { checkout: ['start', 'item added', 'paid'] },
    });
    expect(await call('cart')).to.deep.equal([200, { items: [] }]);
    expect(await call('payments', 'POST')).to.deep.equal([409, { error: 'the cart is empty' }]);
    expect(await call('cart/items', 'POST')).to.deep.equal([201, { added: 'book' }]);
    expect((await scenarios()).scenarios).to.deep.equal({ checkout: 'item added' });
    expect(await call('cart')).to.deep.equal([200, { items: ['book'] }]);
    expect(await call('payments', 'POST')).to.deep.equal([201, { paid: true }]);
    expect(await call('cart')).to.deep.equal([200, { items: ['book'], paid: true }]);
    expect(await call('cart/items', 'POST')).to.deep.equal([409, { error: 'already paid' }]);
    expect((await scenarios()).scenarios, 'a response without setState leaves the state').to.deep.equal({ checkout: 'paid' });
  });

  it('PUT /api/scenarios sets a state the next request answers from', async () => {
    for (const record of CHECKOUT) await addEndpoint(server, record);
    const res = await put({ checkout: 'paid' });
    expect(res.status).to.equal(200);
    expect((await res.json()).scenarios).to.deep.equal({ checkout: 'paid' });
    expect(await call('cart')).to.deep.equal([200, { items: ['book'], paid: true }]);
    await put({ checkout: 'start' });
    expect(await call('cart')).to.deep.equal([200, { items: [] }]);
  });

  it('POST /api/reset puts every scenario back at start', async () => {
    await server.store.syncSource('file:checkout.yaml', CHECKOUT.map(({ data, ...r }) => ({
      ...r, delay: 0, statusCode: r.statusCode ?? 200, json: JSON.stringify(data),
      responses: r.responses.map(({ data: d, ...rest }) => ({ ...rest, json: JSON.stringify(d) })),
    })));
    await call('cart/items', 'POST');
    expect((await scenarios()).scenarios).to.deep.equal({ checkout: 'item added' });
    expect((await server.fetch('/api/reset', { method: 'POST' })).status).to.equal(200);
    expect((await scenarios()).scenarios).to.deep.equal({ checkout: 'start' });
    expect(await call('cart')).to.deep.equal([200, { items: [] }]);
  });

  it('moves the state once per request, in order, however many come at once (and before a delay)', async () => {
    const steps = 20;
    await addEndpoint(server, {
      name: 'ticket',
      scenario: 'queue',
      data: 'none left',
      // Each answer waits: a state moved as the answer is sent, not as it is chosen, would be read twice.
      delay: 30,
      responses: Array.from({ length: steps }, (_, i) => ({
        when: { state: i === 0 ? 'start' : `s${i}` },
        data: i,
        setState: `s${i + 1}`,
      })),
    });
    const answers = await Promise.all(Array.from({ length: steps + 2 }, async () => (await call('ticket'))[1]));
    const numbers = answers.filter((a) => typeof a === 'number').sort((a, b) => a - b);
    expect(numbers).to.deep.equal(Array.from({ length: steps }, (_, i) => i));
    expect(answers.filter((a) => a === 'none left')).to.have.length(2);
    expect((await scenarios()).scenarios).to.deep.equal({ queue: `s${steps}` });
  });

  it("moves the scenario with the endpoint's own setState, and a template reads the state its answer was chosen in", async () => {
    await addEndpoint(server, {
      name: 'toggle',
      scenario: 'light',
      template: true,
      data: { was: '{{scenario.state}}', scenario: '{{scenario.name}}' },
      setState: 'on',
      responses: [{ when: { state: 'on' }, data: { was: '{{scenario.state}}' }, setState: 'off' }],
    });
    expect(await call('toggle')).to.deep.equal([200, { was: 'start', scenario: 'light' }]);
    expect(await call('toggle')).to.deep.equal([200, { was: 'on' }]);
    expect(await call('toggle')).to.deep.equal([200, { was: 'off', scenario: 'light' }]);
    expect((await scenarios()).scenarios).to.deep.equal({ light: 'on' });
  });

  it('matches when.state together with the request parts of the same when', async () => {
    await addEndpoint(server, {
      name: 'orders',
      scenario: 'shop',
      data: 'own',
      responses: [{ when: { state: 'open', query: { id: '1' } }, data: 'open one' }],
    });
    await put({ shop: 'open' });
    const answer = async (path: string) => (await server.fetch(path)).json();
    expect(await answer('/endpoint/orders?id=1')).to.equal('open one');
    expect(await answer('/endpoint/orders?id=2')).to.equal('own');
    await put({ shop: 'closed' });
    expect(await answer('/endpoint/orders?id=1')).to.equal('own');
  });

  it('lists scenarios named by endpoints only, in name order; a deleted endpoint takes its scenario off the list', async () => {
    await addEndpoint(server, { name: 'b', scenario: 'zeta', data: 1, responses: [{ when: { state: 'x' }, data: 2 }] });
    await addEndpoint(server, { name: 'a', scenario: 'alpha', data: 1, setState: 'done' });
    await addEndpoint(server, { name: 'plain', data: 1 });
    expect(await scenarios()).to.deep.equal({
      success: true,
      scenarios: { alpha: 'start', zeta: 'start' },
      states: { alpha: ['start', 'done'], zeta: ['start', 'x'] },
    });
    await server.fetch('/api/endpoint/b', { method: 'DELETE' });
    expect((await scenarios()).scenarios).to.deep.equal({ alpha: 'start' });
  });

  it('echoes scenario, setState and when.state in the record answer, so it can be PUT back', async () => {
    await addEndpoint(server, CHECKOUT[2]!);
    const record = await (await server.fetch('/api/endpoint/pay')).json();
    expect(record).to.deep.include({ scenario: 'checkout' });
    expect(record.responses[0]).to.deep.include({ when: { state: 'item added' }, setState: 'paid' });
    const res = await server.putJson('/api/endpoint/pay', record);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.include({ scenario: 'checkout' });
  });
});

describe('stateful scenarios: what the server keeps', () => {
  it('keeps no more states off start than --max-endpoints: those of scenarios no endpoint names go back first', async () => {
    const server = await startMockServer({ store: { maxEndpoints: 2 } });
    try {
      for (const n of [1, 2, 3]) {
        await addEndpoint(server, { name: `e${n}`, scenario: `s${n}`, data: n, setState: 'moved' });
        await server.fetch(`/endpoint/e${n}`);
        if (n < 3) await server.fetch(`/api/endpoint/e${n}`, { method: 'DELETE' });
      }
      await addEndpoint(server, { name: 'e1', scenario: 's1', data: 1 });
      expect(Object.fromEntries(server.store.scenarios.states())).to.deep.equal({ s3: 'moved' });
      expect((await (await server.fetch('/api/scenarios')).json()).scenarios).to.deep.equal({ s1: 'start', s3: 'moved' });
    } finally {
      await server.close();
    }
  });
});

describe('stateful scenarios: refused input', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    for (const record of CHECKOUT) await addEndpoint(server, record);
  });
  after(() => server.close());

  // [title, body, status, message, field]
  const puts: [string, string, number, string, string | undefined][] = [
    ['a list', '["checkout"]', 400, 'send a JSON object of scenario names to states, such as { "checkout": "start" }', undefined],
    ['no scenario at all', '{}', 400, 'name at least one scenario, such as { "checkout": "start" }', undefined],
    ['malformed JSON', '{"checkout":', 400, 'malformed JSON body', undefined],
    ['a state that is no string', '{"checkout": 1}', 400,
      'checkout must be a state of 1 to 64 characters: letters, digits, . _ ~ - and single spaces between words', 'checkout'],
    ['an empty state', '{"checkout": ""}', 400,
      'checkout must be a state of 1 to 64 characters: letters, digits, . _ ~ - and single spaces between words', 'checkout'],
    ['a state of 65 characters', JSON.stringify({ checkout: 'x'.repeat(65) }), 400,
      'checkout must be a state of 1 to 64 characters: letters, digits, . _ ~ - and single spaces between words', 'checkout'],
    ['a state with a newline', '{"checkout": "paid\\n"}', 400,
      'checkout must be a state of 1 to 64 characters: letters, digits, . _ ~ - and single spaces between words', 'checkout'],
    ['a state with two spaces', '{"checkout": "item  added"}', 400,
      'checkout must be a state of 1 to 64 characters: letters, digits, . _ ~ - and single spaces between words', 'checkout'],
    ['a bad scenario name', '{"check out": "paid"}', 400,
      "'check out' is not a scenario name: 1 to 64 characters, each a letter, a digit or one of . _ ~ -", 'check out'],
    ['an unknown scenario, beside a known one', '{"checkout": "paid", "nope": "paid"}', 404, "no scenario named 'nope': no endpoint names it", 'nope'],
    ['__proto__', '{"__proto__": "paid"}', 404, "no scenario named '__proto__': no endpoint names it", '__proto__'],
  ];
  for (const [title, body, status, message, field] of puts) {
    it(`PUT /api/scenarios refuses ${title} with a ${status}, and sets nothing`, async () => {
      const res = await server.putJson('/api/scenarios', body);
      expect(res.status).to.equal(status);
      expect(await res.json()).to.deep.equal({ success: false, message, ...(field !== undefined && { field }) });
      expect((await (await server.fetch('/api/scenarios')).json()).scenarios).to.deep.equal({ checkout: 'start' });
    });
  }

  it("PUT /api/scenarios from another site's page is a 403, and sets nothing", async () => {
    const res = await server.fetch('/api/scenarios', {
      method: 'PUT',
      headers: { origin: 'https://elsewhere.example', 'content-type': 'text/plain' },
      body: '{"checkout": "paid"}',
    });
    expect(res.status).to.equal(403);
    expect((await (await server.fetch('/api/scenarios')).json()).scenarios).to.deep.equal({ checkout: 'start' });
  });

  it('PUT /api/scenarios refuses a body over --max-body with a 413', async () => {
    const res = await server.putJson('/api/scenarios', JSON.stringify({ checkout: 'x'.repeat(2 * 1024 * 1024) }));
    expect(res.status).to.equal(413);
  });

  // [title, record, field, message]
  const records: [string, Record<string, unknown>, string, string][] = [
    ['setState without scenario', { setState: 'paid' }, 'setState',
      'setState needs a scenario: name the endpoint\'s scenario with "scenario" (such as "scenario": "checkout")'],
    ['when.state without scenario', { responses: [{ data: 2 }, { when: { state: 'paid' }, data: 1 }] }, 'responses[1].when.state',
      'responses[1].when.state needs a scenario: name the endpoint\'s scenario with "scenario" (such as "scenario": "checkout")'],
    ['a response setState without scenario', { responses: [{ setState: 'paid' }] }, 'responses[0].setState',
      'responses[0].setState needs a scenario: name the endpoint\'s scenario with "scenario" (such as "scenario": "checkout")'],
    ['a bad scenario name', { scenario: 'a/b' }, 'scenario',
      'scenario must be a scenario name of 1 to 64 characters, each a letter, a digit or one of . _ ~ -'],
    ['a scenario that is no string', { scenario: 7 }, 'scenario',
      'scenario must be a scenario name of 1 to 64 characters, each a letter, a digit or one of . _ ~ -'],
    ['a bad setState', { scenario: 's', setState: ' paid' }, 'setState',
      'setState must be a state of 1 to 64 characters: letters, digits, . _ ~ - and single spaces between words'],
    ['a bad when.state', { scenario: 's', responses: [{ when: { state: ['paid'] } }] }, 'responses[0].when.state',
      'responses[0].when.state must be a state of 1 to 64 characters: letters, digits, . _ ~ - and single spaces between words'],
    ['a scenario on a collection', { scenario: 's', collection: true, data: [] }, 'scenario',
      "scenario cannot be set on a collection: its answers are json-server's"],
  ];
  for (const [title, fields, field, message] of records) {
    it(`refuses a record with ${title}: a 400 naming ${field}, nothing stored`, async () => {
      const res = await server.putJson('/api/endpoint/add', { name: 'refused', data: 1, ...fields });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ success: false, message, field });
      expect((await server.fetch('/api/endpoint/refused')).status).to.equal(404);
    });
  }
});
