import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMockServer, type TestMockServer } from '../server.js';
import { until } from '../../helpers/until.js';
import type { CallbackResult } from '../../../src/mocks/record/record.js';
import { CALLBACK_BYTES, MemoryBudget } from '../../../src/gates/memory-budget.js';

type Heard = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

/** A real HTTP server that callbacks go to: it records each request, then answers as `answer` says. */
async function startReceiver(answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(204).end()) {
  const heard: Heard[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      heard.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      answer(req, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    heard,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The callbacks of the newest request logged by `name`. */
async function callbacksOf(mocks: TestMockServer, name: string): Promise<CallbackResult[] | undefined> {
  const res = await mocks.fetch(`/api/endpoint/${name}/requests`);
  const { requests } = (await res.json()) as { requests: { callbacks?: CallbackResult[] }[] };
  return requests[0]?.callbacks;
}

const settled = (results: CallbackResult[] | undefined) =>
  results !== undefined && results.every((one) => one.status !== undefined || one.error !== undefined);

describe('callbacks (webhooks an answer sends)', () => {
  let mocks: TestMockServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  afterEach(async () => {
    await mocks?.close();
    await receiver?.close();
  });

  it('sends each after the answer, its strings templates over the request, and logs status and time', async () => {
    receiver = await startReceiver();
    mocks = await startMockServer();
    const stored = await mocks.putJson('/api/endpoint/order', {
      path: 'orders/:id',
      methods: ['POST'],
      statusCode: 202,
      data: { accepted: true },
      callbacks: [
        {
          url: `${receiver.url}/hooks/{{params.id}}?k={{query.k}}`,
          headers: { 'X-Signature': 'sig-{{body.name}}' },
          body: { id: '{{params.id}}', item: '{{body.name}}', n: 3 },
        },
        { method: 'PUT', url: `${receiver.url}/audit`, body: 'order {{params.id}} took', delay: 5 },
      ],
    });
    expect(stored.status).to.equal(201);
    const res = await mocks.fetch('/endpoint/orders/7?k=z', { method: 'POST', body: JSON.stringify({ name: 'pen' }) });
    expect([res.status, await res.json()]).to.deep.equal([202, { accepted: true }]);

    await until(async () => settled(await callbacksOf(mocks, 'order')));
    const results = (await callbacksOf(mocks, 'order'))!;
    expect(results.map(({ method, url, status }) => [method, url, status])).to.deep.equal([
      ['POST', `${receiver.url}/hooks/7?k=z`, 204],
      ['PUT', `${receiver.url}/audit`, 204],
    ]);
    for (const result of results) expect(result.ms).to.be.a('number').within(0, 5000);
    const hook = receiver.heard.find((one) => one.url === '/hooks/7?k=z')!;
    expect(hook.method).to.equal('POST');
    expect(JSON.parse(hook.body)).to.deep.equal({ id: '7', item: 'pen', n: 3 });
    expect(hook.headers).to.include({ 'content-type': 'application/json; charset=utf-8', 'x-signature': 'sig-pen' });
    const audit = receiver.heard.find((one) => one.url === '/audit')!;
    expect([audit.method, audit.body]).to.deep.equal(['PUT', 'order 7 took']);
  });

  it("sends a response's own callbacks instead of the endpoint's, and none for []", async () => {
    receiver = await startReceiver();
    mocks = await startMockServer();
    await mocks.putJson('/api/endpoint/pay', {
      data: 'ok',
      callbacks: [{ url: `${receiver.url}/paid` }],
      responses: [
        { when: { query: { card: 'declined' } }, statusCode: 402, data: 'no', callbacks: [{ url: `${receiver.url}/declined` }] },
        { when: { query: { quiet: '1' } }, data: 'shh', callbacks: [] },
      ],
    });
    await mocks.fetch('/endpoint/pay?card=declined');
    await until(async () => settled(await callbacksOf(mocks, 'pay')));
    await mocks.fetch('/endpoint/pay');
    await until(async () => (await callbacksOf(mocks, 'pay'))?.[0]?.url === `${receiver.url}/paid`);
    await until(async () => settled(await callbacksOf(mocks, 'pay')));
    await mocks.fetch('/endpoint/pay?quiet=1');
    expect(await callbacksOf(mocks, 'pay')).to.equal(undefined);
    expect(receiver.heard.map((one) => one.url)).to.deep.equal(['/declined', '/paid']);
  });

  it('logs a failure (nothing listening) and a time-out, and neither touches the answer', async () => {
    // A server that reads the callback and never answers.
    receiver = await startReceiver(() => {});
    const closed = await startReceiver();
    const nobody = closed.url;
    await closed.close();
    mocks = await startMockServer({ config: { callbackTimeout: 1500 } });
    await mocks.putJson('/api/endpoint/slow', {
      data: { fine: true },
      callbacks: [{ url: `${nobody}/gone` }, { url: `${receiver.url}/silent` }],
    });
    const res = await mocks.fetch('/endpoint/slow');
    expect([res.status, await res.json()]).to.deep.equal([200, { fine: true }]);
    // The answer came while the silent callback was still on its way.
    await until(() => receiver.heard.length === 1);
    expect((await callbacksOf(mocks, 'slow'))![1]).to.deep.equal({ method: 'POST', url: `${receiver.url}/silent` });
    await until(async () => settled(await callbacksOf(mocks, 'slow')));
    const [refused, silent] = (await callbacksOf(mocks, 'slow'))!;
    expect(refused!.error).to.match(/ECONNREFUSED/);
    expect(refused!.status).to.equal(undefined);
    expect(silent!.error).to.equal('timed out after 1500 ms');
    expect(receiver.heard.map((one) => one.url)).to.deep.equal(['/silent']);
  });

  it('sends nothing to a host that is not loopback or named with --callback-host, and says so', async () => {
    receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    mocks = await startMockServer({ config: { callbackHosts: ['hooks.example.test:9'] } });
    await mocks.putJson('/api/endpoint/leak', {
      data: 1,
      callbacks: [
        { url: 'http://169.254.169.254/latest/meta-data/' },
        { url: 'http://{{query.host}}/steal' },
        { url: 'http://hooks.example.test:10/x' },
        // The receiver itself, written as an IPv4-mapped IPv6 address: it would arrive if sent.
        { url: `http://[::ffff:127.0.0.1]:${port}/mapped` },
      ],
    });
    const res = await mocks.fetch('/endpoint/leak?host=10.0.0.1');
    expect(res.status).to.equal(200);
    await until(async () => settled(await callbacksOf(mocks, 'leak')));
    const allowed = 'is not an allowed callback host; allowed: loopback, hooks.example.test:9';
    expect((await callbacksOf(mocks, 'leak'))!.map((one) => one.error)).to.deep.equal([
      `not sent: 169.254.169.254 ${allowed}`,
      `not sent: 10.0.0.1 ${allowed}`,
      `not sent: hooks.example.test:10 ${allowed}`,
      `not sent: [::ffff:7f00:1]:${port} ${allowed}`,
    ]);
    expect(receiver.heard).to.deep.equal([]);
  });

  it('refuses bad callbacks at save with a 400 naming the field, and stores nothing', async () => {
    mocks = await startMockServer();
    const cases: [unknown, string, RegExp][] = [
      [{ url: 'ftp://x/y' }, 'callbacks[0].url', /http:\/\/ or https:\/\//],
      [{}, 'callbacks[0].url', /required/],
      [{ url: 'http://u:p@localhost/' }, 'callbacks[0].url', /user name or password/],
      [{ url: 'http://localhost/', headers: { Host: 'evil' } }, 'callbacks[0].headers', /set by the sender/],
      [{ url: 'http://localhost/', method: 'GET', body: 'x' }, 'callbacks[0].body', /sends no body/],
      [{ url: 'http://localhost/', delay: 10 ** 9 }, 'callbacks[0].delay', /0 to 60000/],
      [{ url: 'http://localhost/{{#each}}' }, 'callbacks[0].url', /template error/],
      [{ url: 'http://localhost/', retries: 3 }, 'callbacks[0].retries', /retries/],
    ];
    for (const [callback, field, message] of cases) {
      const res = await mocks.putJson('/api/endpoint/bad', { data: 1, callbacks: [callback] });
      const answer = (await res.json()) as { message: string; field: string };
      expect(res.status, JSON.stringify(callback)).to.equal(400);
      expect(answer.field, JSON.stringify(callback)).to.equal(field);
      expect(answer.message, JSON.stringify(callback)).to.match(message);
    }
    const many = Array.from({ length: 11 }, () => ({ url: 'http://localhost/' }));
    expect((await mocks.putJson('/api/endpoint/bad', { data: 1, callbacks: many })).status).to.equal(400);
    const onCollection = await mocks.putJson('/api/endpoint/bad', { data: [], collection: true, callbacks: [] });
    expect([onCollection.status, ((await onCollection.json()) as { field: string }).field]).to.deep.equal([400, 'callbacks']);
    expect(mocks.store.list()).to.have.length(0);
  });

  it('reads back as saved, so GET, PUT back and export keep the callbacks', async () => {
    mocks = await startMockServer();
    const callbacks = [{ method: 'PATCH', url: 'http://localhost:1/{{params.id}}', headers: { 'X-A': 'b' }, body: { a: ['{{body.x}}'] }, delay: 20 }];
    await mocks.putJson('/api/endpoint/round', { path: 'r/:id', data: 1, callbacks, responses: [{ data: 2, callbacks: [] }] });
    const got = (await (await mocks.fetch('/api/endpoint/round')).json()) as Record<string, unknown>;
    expect(got.callbacks).to.deep.equal(callbacks);
    expect(got.responses).to.deep.equal([{ data: 2, callbacks: [] }]);
    const back = await mocks.putJson('/api/endpoint/round', got);
    expect(back.status).to.equal(200);
  });
});

describe('callbacks that cannot go', () => {
  let mocks: TestMockServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  afterEach(async () => {
    await mocks?.close();
    await receiver?.close();
  });

  it('says why a callback whose template fails for this request was not sent; the answer and the others go', async () => {
    receiver = await startReceiver();
    mocks = await startMockServer();
    await mocks.putJson('/api/endpoint/t', {
      data: 'fine',
      callbacks: [{ url: `${receiver.url}/a`, headers: { 'X-Echo': '{{query.v}}' } }, { url: `${receiver.url}/ok` }],
    });
    // A line break is fine in a query, not in a header.
    const res = await mocks.fetch('/endpoint/t?v=a%0Ab');
    expect([res.status, await res.text()]).to.deep.equal([200, '"fine"']);
    await until(async () => settled(await callbacksOf(mocks, 't')));
    const [failed, ok] = (await callbacksOf(mocks, 't'))!;
    expect(failed!.error).to.equal('not sent: template error: callbacks[0].headers.X-Echo: the value has characters not allowed in a header');
    expect(ok!.status).to.equal(204);
    expect(receiver.heard.map((one) => one.url)).to.deep.equal(['/ok']);
  });

  it('sends none when the client leaves before its delayed answer', async () => {
    receiver = await startReceiver();
    mocks = await startMockServer();
    await mocks.putJson('/api/endpoint/late', { data: 1, delay: 30_000, callbacks: [{ url: `${receiver.url}/late` }] });
    const leaving = new AbortController();
    const call = mocks.fetch('/endpoint/late', { signal: leaving.signal }).catch((err: unknown) => err);
    await until(() => mocks.store.get('late')!.stats.hits === 1);
    leaving.abort();
    await call;
    await until(async () => settled(await callbacksOf(mocks, 'late')));
    expect((await callbacksOf(mocks, 'late'))![0]!.error).to.equal('not sent: the client left before the answer');
    expect(receiver.heard).to.deep.equal([]);
  });

  it('sends no more once the callbacks budget of the memory gate is spent, and gives it back after', async () => {
    receiver = await startReceiver();
    const memory = new MemoryBudget({ callbacks: 3 * CALLBACK_BYTES });
    mocks = await startMockServer({ store: { memory } });
    await mocks.putJson('/api/endpoint/wait', { data: 1, callbacks: [{ url: `${receiver.url}/w`, delay: 60_000 }] });
    for (let i = 0; i < 3; i++) expect((await mocks.fetch('/endpoint/wait')).status).to.equal(200);
    const res = await mocks.fetch('/endpoint/wait');
    expect(res.status).to.equal(200);
    const { requests } = (await (await mocks.fetch('/api/endpoint/wait/requests')).json()) as { requests: { callbacks: CallbackResult[] }[] };
    const errors = requests.map((one) => one.callbacks[0]!.error);
    expect(errors.filter((error) => error === undefined)).to.have.length(2);
    expect(errors.filter((error) => error?.startsWith('not sent: too many callbacks waiting'))).to.have.length(2);
    expect(memory.callbacks.used).to.be.within(2 * CALLBACK_BYTES, 3 * CALLBACK_BYTES);
    await mocks.close();
    expect(memory.callbacks.used).to.equal(0);
  });

  it('stops an endpoint that calls itself after three callbacks deep, and a given depth header is refused', async () => {
    mocks = await startMockServer();
    await mocks.putJson('/api/endpoint/loop', { data: 'again', callbacks: [{ url: `${mocks.url}/endpoint/loop` }] });
    expect((await mocks.fetch('/endpoint/loop')).status).to.equal(200);
    await until(() => mocks.store.get('loop')!.stats.hits === 4);
    await until(async () => settled(await callbacksOf(mocks, 'loop')));
    const { requests } = (await (await mocks.fetch('/api/endpoint/loop/requests')).json()) as {
      requests: { headers: Record<string, string>; callbacks: CallbackResult[] }[];
    };
    expect(requests.map((one) => one.headers['x-snippetkit-callback'] ?? null)).to.deep.equal(['3', '2', '1', null]);
    expect(requests[0]!.callbacks[0]!.error).to.equal('not sent: the request answered was a callback 3 deep, and callbacks of callbacks stop there');
    for (const one of requests.slice(1)) expect(one.callbacks[0]!.status).to.equal(200);
    expect(mocks.store.get('loop')!.stats.hits).to.equal(4);
    const spoof = await mocks.putJson('/api/endpoint/x', { data: 1, callbacks: [{ url: 'http://localhost/', headers: { 'X-Snippetkit-Callback': '0' } }] });
    expect(spoof.status).to.equal(400);
  });
});
