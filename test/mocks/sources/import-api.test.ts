import { expect } from 'chai';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';
import { MOCK_DEFAULTS } from '../../../src/mocks/config/defaults.js';

describe('POST /api/endpoints/import', () => {
  let server: TestMockServer;
  afterEach(() => server.close());

  const post = (body: unknown) =>
    server.fetch('/api/endpoints/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const names = () => server.store.list().map((e) => e.record.name);

  describe('on a server with room', () => {
    beforeEach(async () => {
      server = await startMockServer();
    });

    it('creates every record and says which were created', async () => {
      const endpoints = [
        { name: 'b', data: { id: 1 } },
        { name: 'a', body: 'hi', path: 'users/:id', methods: ['get'] },
      ];
      const res = await post({ endpoints });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ success: true, created: ['b', 'a'], replaced: [] });
      expect(server.store.get('a')!.record).to.include({ body: 'hi', path: 'users/:id' });
      expect(server.store.get('a')!.record.methods).to.deep.equal(['GET']);
    });

    it('lists every invalid record with its index, name and field, and stores nothing', async () => {
      const endpoints = [
        { name: 'ok', data: 1 },
        { name: 'bad status', data: 1 },
        { name: 'late', data: 1, delay: -1 },
        'not an object',
        { name: 'ok', data: 2 },
      ];
      const res = await post({ endpoints });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({
        success: false,
        message: '4 of 5 records are invalid',
        errors: [
          {
            index: 1,
            name: 'bad status',
            field: 'name',
            message: 'name must be 1 to 128 characters, each a letter, a digit or one of . _ ~ -',
          },
          {
            index: 2,
            name: 'late',
            field: 'delay',
            message: 'delay must be a number of milliseconds from 0 to 60000',
          },
          { index: 3, message: 'a record must be a JSON object' },
          { index: 4, name: 'ok', field: 'name', message: "name 'ok' is also at index 0" },
        ],
      });
      expect(names()).to.deep.equal([]);
    });

    it('lists every name that exists and every route overlap at once, and writes nothing', async () => {
      await addEndpoint(server, { name: 'x', data: 1 });
      await addEndpoint(server, { name: 'y', data: 1 });
      await addEndpoint(server, { name: 'users', path: 'users/:id', data: 1 });
      const endpoints = [
        { name: 'new', data: 1 },
        { name: 'x', data: 2 },
        { name: 'y', data: 2 },
        { name: 'other', path: 'users/:key', data: 2 },
      ];
      const res = await post({ endpoints });
      expect(res.status).to.equal(409);
      expect(await res.json()).to.deep.equal({
        success: false,
        message: '3 conflicts; nothing was imported (replace: true replaces endpoints of the same name)',
        errors: [
          { index: 1, name: 'x', field: 'name', message: "an endpoint named 'x' already exists" },
          { index: 2, name: 'y', field: 'name', message: "an endpoint named 'y' already exists" },
          {
            index: 3,
            name: 'other',
            field: 'path',
            message: "path 'users/:key' overlaps endpoint 'users': same route shape with a method in common",
          },
        ],
      });
      expect(names()).to.deep.equal(['users', 'x', 'y']);
      expect(server.store.get('x')!.record.json).to.equal('1');
    });

    it('finds routes that overlap between two of the records', async () => {
      const endpoints = [
        { name: 'one', path: 'p/:a', data: 1 },
        { name: 'two', path: 'p/:b', data: 2 },
      ];
      const res = await post({ endpoints, replace: true });
      expect(res.status).to.equal(409);
      expect((await res.json()).errors).to.deep.equal([
        {
          index: 1,
          name: 'two',
          field: 'path',
          message: "path 'p/:b' overlaps endpoint 'one': same route shape with a method in common",
        },
      ]);
      expect(names()).to.deep.equal([]);
    });

    it('replaces with replace: true, where a replaced endpoint may move to a route its old one held', async () => {
      await addEndpoint(server, { name: 'x', path: 'old', data: 1 });
      const endpoints = [
        { name: 'x', path: 'moved', data: 2 },
        { name: 'z', path: 'old', data: 3 },
      ];
      const res = await post({ endpoints, replace: true });
      expect(await res.json()).to.deep.equal({ success: true, created: ['z'], replaced: ['x'] });
      expect(server.store.get('x')!.record).to.include({ path: 'moved', json: '2' });
    });

    it('says which endpoints were written when a write fails midway, and logs the cause', async () => {
      const put = server.store.put;
      let writes = 0;
      server.store.put = (input) => (++writes === 2 ? Promise.reject(new Error('disk full')) : put(input));
      const endpoints = [
        { name: 'a', data: 1 },
        { name: 'b', data: 2 },
        { name: 'c', data: 3 },
      ];
      const res = await post({ endpoints, replace: true });
      expect(res.status).to.equal(500);
      expect(await res.json()).to.deep.equal({
        success: false,
        message: `the import stopped at 'b': the data file failed; the 1 written before it (in "written") are kept`,
        written: ['a'],
      });
      expect(names()).to.deep.equal(['a']);
      expect(server.errors.join('\n')).to.include('disk full');
    });

    it('refuses a body that is not an import, naming the field', async () => {
      const cases: [unknown, string, string | undefined][] = [
        [[], 'request body must be a JSON object', undefined],
        [{}, 'endpoints must be a list of records', 'endpoints'],
        [{ endpoints: [], replace: 'yes' }, 'replace must be true or false', 'replace'],
        [{ endpoints: [], force: true }, "unknown field 'force'", 'force'],
      ];
      for (const [body, message, field] of cases) {
        const res = await post(body);
        expect(res.status, message).to.equal(400);
        expect(await res.json()).to.deep.equal({ success: false, message, ...(field && { field }) });
      }
    });
  });

  it('answers 415 to a body not declared JSON, which a page on another origin could send without asking', async () => {
    server = await startMockServer({ config: { cors: false } });
    const res = await server.fetch('/api/endpoints/import', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ endpoints: [{ name: 'planted', data: 1 }] }),
    });
    expect(res.status).to.equal(415);
    expect(await res.json()).to.deep.equal({
      success: false,
      message: 'send the body as application/json (got text/plain)',
    });
    expect(names()).to.deep.equal([]);
  });

  it('takes a body past --max-body, up to the import limit for documents', async () => {
    server = await startMockServer({ config: { maxBody: 1000 } });
    const res = await post({ endpoints: [{ name: 'big', data: 'x'.repeat(2000) }] });
    expect(res.status).to.equal(200);
    expect(names()).to.deep.equal(['big']);
  });

  it('answers 413 past the import limit (or --max-body when larger) and stores nothing', async () => {
    server = await startMockServer({ config: { maxBody: MOCK_DEFAULTS.maxImportBody + 1000 } });
    const res = await post({ endpoints: [{ name: 'big', data: 'x'.repeat(MOCK_DEFAULTS.maxImportBody + 2000) }] });
    expect(res.status).to.equal(413);
    expect(await res.json()).to.deep.equal({
      success: false,
      message: `request body too large (the limit is ${MOCK_DEFAULTS.maxImportBody + 1000} bytes)`,
    });
    expect(names()).to.deep.equal([]);
  });

  it('answers 507 before writing anything when the records would not fit --max-endpoints', async () => {
    server = await startMockServer({ store: { maxEndpoints: 3 } });
    await addEndpoint(server, { name: 'a', data: 1 });
    await addEndpoint(server, { name: 'b', data: 1 });
    const endpoints = [
      { name: 'a', data: 2 },
      { name: 'c', data: 1 },
      { name: 'd', data: 1 },
    ];
    const res = await post({ endpoints, replace: true });
    expect(res.status).to.equal(507);
    expect(await res.json()).to.deep.equal({
      success: false,
      message:
        'no room for 2 new endpoints: the server holds 2 of at most 3 (--max-endpoints), room for 1; ' +
        'nothing was imported',
    });
    expect(names()).to.deep.equal(['a', 'b']);
    expect(server.store.get('a')!.record.json).to.equal('1');
  });
});
