import { expect } from 'chai';
import { join } from 'node:path';
import type { EndpointSave, MockEngine } from '../../src/mocks/mock-engine.js';
import type { StoredMock } from '../../src/mocks/record.js';
import type { LoggedRequest } from '../../src/mocks/request-log.js';
import { openSqliteMocks } from '../../src/mocks/sqlite-mocks.js';
import { tempDir } from '../helpers/temp.js';

const record = (name: string, json: string): StoredMock => ({
  name,
  json,
  statusCode: 200,
  delay: 0,
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
});
const request = (url: string): LoggedRequest => ({
  time: '2026-01-01T00:00:00.000Z',
  method: 'GET',
  url,
  ip: '127.0.0.1',
  headers: {},
  body: '',
  bodyTruncated: false,
  response: null,
  status: 200,
});
const save = (name: string, fields: Partial<EndpointSave> = {}): EndpointSave => ({
  name,
  hits: 0,
  lastCall: null,
  sequence: 0,
  entries: [],
  skipped: 0,
  keep: 100,
  ...fields,
});

describe('the SQLite mock engine', () => {
  let temp: ReturnType<typeof tempDir>;
  let engine: MockEngine;
  beforeEach(async () => {
    temp = tempDir();
    engine = await openSqliteMocks(join(temp.dir, 'mocks.sqlite'));
  });
  afterEach(async () => {
    await engine.close();
    temp.cleanup();
  });
  const urls = async (name: string) => {
    const saved = (await engine.stats.load(100)).get(name);
    return saved?.entries.map(({ seq, entry }) => `${seq} ${(JSON.parse(entry) as LoggedRequest).url}`);
  };

  it('puts, replaces, reads and deletes endpoint records', async () => {
    await engine.endpoints.put(record('a', '1'));
    await engine.endpoints.put(record('b', '2'));
    await engine.endpoints.put(record('a', '3'));
    const all = (await engine.endpoints.all()).map((r) => `${r.name} ${r.json}`).sort();
    expect([all, (await engine.endpoints.get('a'))?.json]).to.deep.equal([['a 3', 'b 2'], '3']);
    expect([await engine.endpoints.delete('a'), await engine.endpoints.delete('a'), await engine.endpoints.get('a')])
      .to.deep.equal([true, false, undefined]);
  });

  it('saves, loads and drops a collection state', async () => {
    await engine.collections.save('posts', { seed: 's', value: '[1]' });
    await engine.collections.save('posts', { seed: 's', value: '[1,2]' });
    const loaded = await engine.collections.load('posts');
    await engine.collections.drop('posts');
    expect([loaded, await engine.collections.load('posts')]).to.deep.equal([{ seed: 's', value: '[1,2]' }, undefined]);
  });

  it('adds hits to the stored count, keeps the later lastCall and replaces the sequence place', async () => {
    await engine.stats.save([save('a', { hits: 3, lastCall: '2026-01-02T00:00:00.000Z', sequence: 1 })]);
    // As another instance, whose last call was earlier, would save.
    await engine.stats.save([save('a', { hits: 2, lastCall: '2026-01-01T00:00:00.000Z', sequence: 0 })]);
    await engine.stats.save([save('a', { hits: 0, lastCall: null, sequence: 2 })]);
    const { hits, lastCall, sequence } = (await engine.stats.load(100)).get('a')!;
    expect({ hits, lastCall, sequence }).to.deep.equal({ hits: 5, lastCall: '2026-01-02T00:00:00.000Z', sequence: 2 });
  });

  it('appends entries numbered on from the newest, after the skipped ones', async () => {
    await engine.stats.save([save('a', { entries: [request('/1'), request('/2')] }), save('b', { entries: [request('/b')] })]);
    await engine.stats.save([save('a', { entries: [request('/5')], skipped: 2 })]);
    expect([await urls('a'), await urls('b')]).to.deep.equal([['1 /1', '2 /2', '5 /5'], ['1 /b']]);
  });

  it("keeps each saved log's newest `keep` entries", async () => {
    await engine.stats.save([save('a', { entries: [request('/1'), request('/2'), request('/3')], keep: 2 })]);
    await engine.stats.save([save('a', { entries: [request('/4')], keep: 2 })]);
    expect(await urls('a')).to.deep.equal(['3 /3', '4 /4']);
  });

  it('writes none of a batch that fails part-way', async () => {
    const bad = save('b', { entries: [request('/b')] });
    // A name the log table refuses (NOT NULL), after a good endpoint.
    const failure = await engine.stats
      .save([save('a', { hits: 1, entries: [request('/a')] }), { ...bad, name: null as unknown as string }])
      .then(() => 'saved', (err: Error) => err.message);
    expect([failure, (await engine.stats.load(100)).size]).to.deep.equal([
      'SQLITE_CONSTRAINT: NOT NULL constraint failed: mock_requests.name',
      0,
    ]);
  });

  it('clears a log, keeping its counters, and forgets endpoints whole', async () => {
    await engine.stats.save([save('a', { hits: 2, entries: [request('/a')] }), save('b', { hits: 1, entries: [request('/b')] })]);
    await engine.stats.clearLog('a');
    const cleared = (await engine.stats.load(100)).get('a');
    await engine.stats.forget(['a', 'b']);
    expect([cleared?.hits, cleared?.entries, (await engine.stats.load(100)).size]).to.deep.equal([2, [], 0]);
  });

  it('cuts each log to the log size at load', async () => {
    await engine.stats.save([save('a', { entries: [request('/1'), request('/2'), request('/3')] })]);
    await engine.stats.load(1);
    expect(await urls('a')).to.deep.equal(['3 /3']);
  });

  it('has no change feed: one process writes the file', () => {
    expect(engine.changes).to.equal(undefined);
  });
});
