import { expect } from 'chai';
import { checkBasePath, underBasePath } from '../../../src/mocks/config/base-path.js';
import { startMockServer, type TestMockServer } from '../server.js';
import { importFixture } from '../sources/import-fixture.js';

describe('--base-path', () => {
  const checked = [
    { given: '/', result: { path: '/' } },
    { given: '/v1/', result: { path: '/v1' } },
    { given: '//v1//store', result: { path: '/v1/store' } },
    { given: 'v1', result: { problem: "'v1' is not a path: give one starting with /, such as / or /v1" } },
    { given: '/v1?x=1', result: { problem: "'/v1?x=1' is not a plain path: no query, fragment, '.' or '..' segments" } },
    { given: '/a/../api', result: { problem: "'/a/../api' is not a plain path: no query, fragment, '.' or '..' segments" } },
    ...['/api', '/API/v3', '/static', '/endpoint/x'].map((given) => ({
      given,
      result: { problem: `'${given}' is under /${given.split('/')[1]!.toLowerCase()}, which the mock server keeps for itself (/api: its API, /static: its page, /endpoint: its endpoints); choose another` },
    })),
  ];
  for (const { given, result } of checked) {
    it(`takes '${given}' as ${JSON.stringify(result)}`, () => {
      expect(checkBasePath(given)).to.deep.equal(result);
    });
  }

  const routed = [
    { base: '/', url: '/pets/1?x=1', path: 'pets/1' },
    { base: '/', url: '/', path: undefined },
    { base: '/', url: '/api/endpoints', path: undefined },
    { base: '/', url: '/Static/app.js', path: undefined },
    { base: '/', url: '/static', path: undefined },
    { base: '/v1', url: '/v1/pets', path: 'pets' },
    { base: '/v1', url: '/v1', path: '' },
    { base: '/v1', url: '/v10/pets', path: undefined },
    { base: '/v1', url: '/pets', path: undefined },
  ];
  for (const { base, url, path } of routed) {
    it(`under ${base}, answers ${url} as ${path === undefined ? "the server's own" : `endpoint path '${path}'`}`, () => {
      expect(underBasePath(base, url)).to.equal(path);
    });
  }

  describe('on a server', () => {
    let server: TestMockServer;
    const start = async (basePath: string) => {
      server = await startMockServer({ config: { basePath } });
      await importFixture(server, 'petstore-3.0.yaml');
    };
    afterEach(() => server.close());

    it('with /, answers each operation at its own path, as under /endpoint/, and logs it there', async () => {
      await start('/');
      const own = await server.fetch('/pets/7');
      expect(own.status).to.equal(200);
      expect(await own.text()).to.equal(await (await server.fetch('/endpoint/pets/7')).text());
      expect((await server.fetch('/pets/7', { headers: { prefer: 'code=500' } })).status).to.equal(500);
      const { requests } = await (await server.fetch('/api/endpoint/showPetById/requests')).json();
      expect(requests.map((r: { url: string }) => r.url)).to.include('/pets/7');
    });

    it("with /, keeps the server's own routes: the API, the page, a path no endpoint has", async () => {
      await start('/');
      expect((await server.fetch('/api/endpoints')).status).to.equal(200);
      expect((await server.fetch('/', { redirect: 'manual' })).status).to.equal(302);
      const missing = await server.fetch('/nothing/here');
      expect(missing.status).to.equal(404);
      expect(await missing.json()).to.deep.equal({ success: false, message: "no endpoint at '/endpoint/nothing/here'" });
    });

    it('with /v1, answers under /v1 only', async () => {
      await start('/v1');
      expect((await server.fetch('/v1/pets')).status).to.equal(200);
      expect((await server.fetch('/pets')).status).to.equal(404);
    });
  });
});
