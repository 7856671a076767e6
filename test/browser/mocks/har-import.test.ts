import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { recordedHeaders } from '../../../src/mocks/record/recording.js';
import { runCli, useMockProcess } from '../../helpers/cli.js';
import { browser } from '../browser.js';

/** What the real server answers, by path: the bytes a replay must give back. */
type Answer = { status: number; headers: Record<string, string | string[]>; body: Buffer };

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PAGE = `<!doctype html><title>har</title><img id="logo" src="/logo.png">
<script>
  const image = new Promise((resolve) => (logo.complete ? resolve() : logo.addEventListener('load', resolve)));
  Promise.all([
    image,
    fetch('/api/user?id=1').then((r) => r.text()),
    fetch('/api/user?id=2').then((r) => r.text()),
    fetch('/notes.txt').then((r) => r.text()),
    fetch('/moved').then((r) => r.text()),
    fetch('/api/user', { method: 'POST', body: '{}' }).then((r) => r.text()),
  ]).then(() => (window.done = true));
</script>`;

function answers(): Map<string, Answer> {
  const json = (value: unknown, extra: Record<string, string | string[]> = {}) => ({
    status: 200,
    headers: { 'content-type': 'application/json', ...extra },
    body: Buffer.from(JSON.stringify(value)),
  });
  const text = (body: string, type: string, extra: Record<string, string> = {}) => ({
    status: 200,
    headers: { 'content-type': type, ...extra },
    body: Buffer.from(body),
  });
  return new Map<string, Answer>([
    ['GET /page.html', text(PAGE, 'text/html; charset=utf-8')],
    ['GET /api/user?id=1', json({ id: 1, name: 'Ada' }, { 'set-cookie': ['session=s1', 'seen=1'], etag: 'W/"1"' })],
    ['GET /api/user?id=2', json({ id: 2, name: 'Grace', note: 'naïve ✓' })],
    ['POST /api/user', { ...json({ created: true }), status: 201 }],
    ['GET /notes.txt', text('café ✓\r\nline two\n', 'text/plain; charset=utf-8', { 'cache-control': 'no-store' })],
    ['GET /moved', { status: 302, headers: { location: '/notes.txt' }, body: Buffer.alloc(0) }],
    ['GET /logo.png', { status: 200, headers: { 'content-type': 'image/png' }, body: PNG }],
  ]);
}

type HarEntry = {
  request: { method: string; url: string };
  response: { status: number; headers: { name: string; value: string }[] };
};

describe('mock import of a HAR recorded by Chromium', function () {
  this.timeout(60_000);
  const mocks = useMockProcess();
  const served = answers();
  let site: Server;
  let origin: string;
  before(async () => {
    site = createServer((req, res) => {
      const missing = { status: 404, headers: { 'content-type': 'text/plain' }, body: Buffer.from('no') };
      const answer = served.get(`${req.method} ${req.url}`) ?? missing;
      req.resume();
      res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  });
  after(() => new Promise<void>((resolve) => site.close(() => resolve())));

  it('imports every answer, the image too, and replays each byte for byte with its headers', async () => {
    const harFile = join(mocks.dir, 'session.har');
    const context = await (await browser()).newContext({ recordHar: { path: harFile } });
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/page.html`);
      await page.waitForFunction(() => (window as { done?: boolean }).done === true);
    } finally {
      await context.close(); // writes the HAR
    }

    const result = await runCli(['mock', 'import', harFile, '--server', mocks.url]);
    expect(result.stderr).not.to.contain('skipped');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stderr).to.match(/imported 6 endpoints from .*session\.har: 6 created, 0 replaced/);

    const entries = (JSON.parse(readFileSync(harFile, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
    const replayed = new Set<string>();
    for (const { request, response } of entries) {
      const url = new URL(request.url);
      const key = `${request.method} ${url.pathname}${url.search}`;
      const sent = served.get(key);
      if (!sent || url.origin !== origin) continue;
      expect(response.status, key).to.equal(sent.status);
      const replay = await fetch(`${mocks.url}/endpoint${url.pathname}${url.search}`, {
        method: request.method,
        redirect: 'manual',
        ...(request.method === 'POST' && { body: '{}' }),
      });
      expect(replay.status, key).to.equal(sent.status);
      expect(Buffer.from(await replay.arrayBuffer()), key).to.deep.equal(sent.body);
      const recorded = Object.fromEntries(response.headers.map((h) => [h.name.toLowerCase(), h.value]));
      const kept = recordedHeaders(recorded, false);
      // Every header the site sent, but its cookies, is among those kept (and then replayed).
      const { 'set-cookie': _cookies, ...sentHeaders } = sent.headers;
      expect(kept, key).to.include(sentHeaders).and.not.have.property('set-cookie');
      for (const [name, value] of Object.entries(kept)) {
        expect(replay.headers.get(name), `${key} ${name}`).to.equal(value);
      }
      expect(replay.headers.get('set-cookie'), key).to.equal(null);
      replayed.add(key);
    }
    expect([...replayed].sort()).to.deep.equal([...served.keys()].sort());
  });
});
