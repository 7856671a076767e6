import { expect } from 'chai';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { startMockServer, type TestMockServer } from '../server.js';

// Faker's own words, which name the replacement.
const FLICKR =
  'faker.image.urlLoremFlickr() is deprecated since v10.1.0 and will be removed in v11.0.0. Please use faker.image.url() instead.';

describe('templates: nothing a request does is printed by the server', () => {
  describe('at save', () => {
    let server: TestMockServer;
    before(async () => (server = await startMockServer()));
    after(() => server.close());

    it('refuses a deprecated faker method, naming it and its replacement, and keeps nothing', async () => {
      const res = await server.putJson('/api/endpoint/flickr', {
        template: true,
        data: { url: "{{faker 'image.urlLoremFlickr'}}" },
      });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({
        success: false,
        message: `template error: data.url: faker's 'image.urlLoremFlickr' is refused: ${FLICKR} (line 1, column 1)`,
        field: 'data.url',
      });
      expect(server.store.get('flickr')).to.equal(undefined);
    });

    it('accepts the replacement faker names', async () => {
      const res = await server.putJson('/api/endpoint/image', { template: true, data: "{{faker 'image.url'}}" });
      expect(res.status).to.equal(201);
      expect(await (await server.fetch('/endpoint/image')).json()).to.match(/^https:\/\//);
    });
  });

  describe('the server process', () => {
    let temp: ReturnType<typeof tempDir>;
    let server: ServerProcess;
    before(async () => {
      temp = tempDir();
      server = await startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite')]);
    });
    after(async () => {
      await server?.stop();
      temp?.cleanup();
    });

    const put = (name: string, record: unknown) =>
      fetch(`${server.url}/api/endpoint/${name}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(record),
      });

    it('writes no byte to its stderr for a deprecated faker method named by the request', async () => {
      // The name comes from the query, so only the render can check it: it used to print faker's
      // warning once per call, 292 KB of server log for a 4 KB request.
      const saved = await put('named', { template: true, methods: ['POST'], data: '{{#each body}}{{faker ../query.m}}{{/each}}' });
      expect(saved.status).to.equal(201);
      const before = server.stderr().length;
      const res = await fetch(`${server.url}/endpoint/named?m=image.urlLoremFlickr`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(Array(2047).fill(0)),
      });
      expect(res.status).to.equal(500);
      expect(await res.json()).to.deep.equal({
        success: false,
        message: `template error: data: ${FLICKR}`,
        field: 'data',
      });
      // The answer is written after the render, so anything it printed is in the pipe by now; a
      // plain request after it gives the pipe time to be read.
      await put('after', { data: 1 });
      expect(server.stderr().slice(before)).to.equal('');
    });

    it('writes no byte to its stderr for a template reaching for a prototype property', async () => {
      const saved = await put('proto', { template: true, methods: ['POST'], data: '{{body.constructor.name}}{{lookup body "__proto__"}}' });
      expect(saved.status).to.equal(201);
      const before = server.stderr().length;
      const res = await fetch(`${server.url}/endpoint/proto`, { method: 'POST', body: '{"a":1}' });
      expect(res.status).to.equal(200);
      await put('after', { data: 1 });
      expect(server.stderr().slice(before)).to.equal('');
    });
  });
});
