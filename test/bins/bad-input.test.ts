import { expect } from 'chai';
import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';

type Case = { name: string; type: string; body: string | Buffer; status: number; error: unknown };

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

const cases: Case[] = [
  { name: 'all panels empty', type: FORM, body: 'html=&css=&javascript=', status: 400, error: { error: 'Unable to save: The bin has no content' } },
  { name: 'panels only whitespace', type: FORM, body: 'html=%20%0A&css=%09', status: 400, error: { error: 'Unable to save: The bin has no content' } },
  { name: 'no body at all', type: FORM, body: '', status: 400, error: { error: 'Unable to save: The bin has no content' } },
  { name: 'blacklisted content', type: FORM, body: 'html=buy%20spamword%20now', status: 400, error: { error: 'Unable to save: Post contains blacklisted content' } },
  { name: 'malformed JSON', type: JSON_TYPE, body: '{"html": ', status: 400, error: { error: 'malformed JSON body' } },
  { name: 'a JSON array body', type: JSON_TYPE, body: '["html"]', status: 400, error: { error: 'Unable to save: The bin has no content' } },
  { name: 'a panel that is a number', type: JSON_TYPE, body: '{"html": 5}', status: 400, error: { error: 'html must be a string', field: 'html' } },
  { name: 'a panel that is an object', type: JSON_TYPE, body: '{"css": {"a": 1}}', status: 400, error: { error: 'css must be a string', field: 'css' } },
  { name: 'a panel sent twice in a form', type: FORM, body: 'javascript=a&javascript=b', status: 400, error: { error: 'javascript must be a string', field: 'javascript' } },
  { name: 'settings that are not JSON', type: FORM, body: 'html=x&settings=%7Bnope', status: 400, error: { error: 'settings is not valid JSON', field: 'settings' } },
  { name: 'settings that are a JSON array', type: FORM, body: 'html=x&settings=%5B1%5D', status: 400, error: { error: 'settings must be a JSON object', field: 'settings' } },
  { name: 'settings that are a JSON number', type: JSON_TYPE, body: '{"html":"x","settings":"3"}', status: 400, error: { error: 'settings must be a JSON object', field: 'settings' } },
  {
    name: 'settings nested 100,000 levels deep',
    type: JSON_TYPE,
    body: JSON.stringify({ html: 'x', settings: `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}` }),
    status: 400,
    error: { error: 'settings are nested more than 32 levels deep', field: 'settings' },
  },
  {
    name: 'settings sent as an object nested 100,000 levels deep',
    type: JSON_TYPE,
    body: `{"html":"x","settings":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
    status: 400,
    error: { error: 'settings are nested more than 32 levels deep', field: 'settings' },
  },
  { name: 'a form body over the limit', type: FORM, body: `html=${'a'.repeat(1024 * 1024 + 10)}`, status: 413, error: { error: 'request body too large' } },
  { name: 'a JSON body over the limit', type: JSON_TYPE, body: JSON.stringify({ html: 'a'.repeat(1024 * 1024 + 10) }), status: 413, error: { error: 'request body too large' } },
];

describe('bin API bad input', () => {
  let server: TestBinServer;
  before(async () => {
    server = await startBinServer({ ...OPEN, blacklist: { html: ['spamword'] } });
  });
  after(() => server.close());

  for (const c of cases) {
    it(`answers ${c.status} for ${c.name} and stores nothing`, async () => {
      const res = await server.fetch('/api/save', { method: 'POST', headers: { 'content-type': c.type }, body: c.body });
      expect(res.status).to.equal(c.status);
      expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(await res.json()).to.deep.equal(c.error);
      expect(await server.store.list()).to.deep.equal([]);
    });
  }

  it('keeps the server answering after a refused oversize body', async () => {
    const res = await server.postForm('/api/save', { html: 'fine' });
    expect(res.status).to.equal(200);
    await server.fetch(`/api/${(await res.json()).url}`, { method: 'DELETE', headers: { Authorization: 'token x' } });
  });
});
