import { expect } from 'chai';
import { startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

const KEY_NEEDED = { error: 'You need to provide a valid API key when using this API' };
const INVALID_KEY = { error: 'The API key you provided is not valid' };

type Case = {
  name: string;
  config: Record<string, unknown>;
  method: 'GET' | 'POST';
  key?: { header?: string; query?: string };
  status: number;
  body?: unknown;
};

const DEFAULT = {};
const KEYED = { ownership: { api_key: 'the-key' } };
const OPEN = { api: { allowAnonymousReadWrite: true } };
const CLOSED = { api: { allowAnonymousRead: false }, ownership: { api_key: 'the-key' } };

const cases: Case[] = [
  { name: 'default config: anonymous read is allowed', config: DEFAULT, method: 'GET', status: 200 },
  { name: 'default config: anonymous save is refused', config: DEFAULT, method: 'POST', status: 403, body: KEY_NEEDED },
  { name: 'default config: any key is invalid when none is set', config: DEFAULT, method: 'GET', key: { query: 'x' }, status: 403, body: INVALID_KEY },
  { name: 'keyed: save with Authorization: token KEY', config: KEYED, method: 'POST', key: { header: 'token the-key' }, status: 200 },
  { name: 'keyed: "Token" is matched case-insensitively', config: KEYED, method: 'POST', key: { header: 'Token the-key' }, status: 200 },
  { name: 'keyed: save with ?api_key=KEY', config: KEYED, method: 'POST', key: { query: 'the-key' }, status: 200 },
  { name: 'keyed: save without a key is refused', config: KEYED, method: 'POST', status: 403, body: KEY_NEEDED },
  { name: 'keyed: a wrong key is refused for saves', config: KEYED, method: 'POST', key: { header: 'token nope' }, status: 403, body: INVALID_KEY },
  { name: 'keyed: a wrong key is refused for reads too', config: KEYED, method: 'GET', key: { query: 'nope' }, status: 403, body: INVALID_KEY },
  { name: 'keyed: the query key wins over the header', config: KEYED, method: 'POST', key: { query: 'nope', header: 'token the-key' }, status: 403, body: INVALID_KEY },
  { name: 'keyed: a key prefix is not the key', config: KEYED, method: 'POST', key: { query: 'the-ke' }, status: 403, body: INVALID_KEY },
  { name: 'keyed: anonymous read still allowed', config: KEYED, method: 'GET', status: 200 },
  { name: 'anonymous read-write: save without a key', config: OPEN, method: 'POST', status: 200 },
  { name: 'anonymous read-write: read without a key', config: OPEN, method: 'GET', status: 200 },
  { name: 'reads closed: read without a key is refused', config: CLOSED, method: 'GET', status: 403, body: KEY_NEEDED },
  { name: 'reads closed: read with the key', config: CLOSED, method: 'GET', key: { header: 'token the-key' }, status: 200 },
];

describe('bin API authentication', () => {
  for (const c of cases) {
    it(`${c.name} (${c.status})`, async () => {
      const server: TestBinServer = await startBinServer(c.config);
      try {
        // a bin to read, saved straight through the store
        const bin = await server.store.append('abc', () => ({ html: 'x', javascript: '', css: '', settings: {} }));
        const query = c.key?.query !== undefined ? `?api_key=${encodeURIComponent(c.key.query)}` : '';
        const headers: Record<string, string> = c.key?.header ? { Authorization: c.key.header } : {};
        const res =
          c.method === 'GET'
            ? await server.fetch(`/api/${bin.bin}${query}`, { headers })
            : await server.postForm(`/api/save${query}`, { html: 'new' }, headers);
        expect(res.status).to.equal(c.status);
        if (c.body) expect(await res.json()).to.deep.equal(c.body);
        if (c.method === 'POST' && c.status !== 200) {
          expect((await server.store.list()).map((b) => b.bin)).to.deep.equal(['abc']);
        }
      } finally {
        await server.close();
      }
    });
  }
});
