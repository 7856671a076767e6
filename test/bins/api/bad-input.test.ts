import { expect } from 'chai';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

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
  { name: 'raw bytes that are not UTF-8', type: FORM, body: Buffer.from([0x68, 0x74, 0x6d, 0x6c, 0x3d, 0xff, 0xfe, 0x41]), status: 400, error: { error: 'the request body is not valid UTF-8' } },
  { name: 'a %-escape that is not UTF-8', type: FORM, body: 'html=%FF%FE', status: 400, error: { error: 'the form body has a malformed %-escape or is not UTF-8' } },
  { name: 'a broken %-escape', type: FORM, body: 'html=100%', status: 400, error: { error: 'the form body has a malformed %-escape or is not UTF-8' } },
  { name: '10,000 form fields', type: FORM, body: `${Array.from({ length: 10_000 }, (_, i) => `f${i}=x`).join('&')}&html=hi`, status: 413, error: { error: 'too many form fields (more than 1000)' } },
  { name: 'a text/plain body', type: 'text/plain', body: 'html=hi', status: 415, error: { error: 'send the save as application/x-www-form-urlencoded or application/json' } },
  { name: 'a body in another charset', type: `${FORM}; charset=latin1`, body: 'html=hi', status: 415, error: { error: 'send the body in UTF-8 (got charset latin1)' } },
  { name: 'a form body over the limit', type: FORM, body: `html=${'a'.repeat(1024 * 1024 + 10)}`, status: 413, error: { error: 'request body too large (the limit is 1048576 bytes)' } },
  { name: 'a JSON body over the limit', type: JSON_TYPE, body: JSON.stringify({ html: 'a'.repeat(1024 * 1024 + 10) }), status: 413, error: { error: 'request body too large (the limit is 1048576 bytes)' } },
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

  it('takes a field named __proto__ as an ordinary, ignored field', async () => {
    const res = await server.fetch('/api/save', { method: 'POST', headers: { 'content-type': FORM }, body: '__proto__=x&html=kept' });
    expect(res.status).to.equal(200);
    const bin = await (await server.fetch(`/api/${(await res.json()).url}`)).json();
    expect(bin.html).to.equal('kept');
    await server.store.remove(bin.url);
  });

  it('keeps the server answering after a refused oversize body', async () => {
    const res = await server.postForm('/api/save', { html: 'fine' });
    expect(res.status).to.equal(200);
    await server.fetch(`/api/${(await res.json()).url}`, { method: 'DELETE', headers: { Authorization: 'token x' } });
  });
});
