import { expect } from 'chai';
import { startMockServer, type TestMockServer } from '../server.js';

type Row = { title: string; record: Record<string, unknown>; field: string; message: string | RegExp };

const DELAY = 'must be a number of milliseconds from 0 to 1000';
const METHOD = 'must be an HTTP method name such as GET';
const FAKER = "(use 'module.method', such as 'person.fullName') (line 1, column 1)";
const UNAVAILABLE = 'are not available in templates';
const SEGMENT = "a segment holds letters, digits and . _ ~ - ! $ & ' ( ) + , ; = @ ? # and : not first (or is :param, :param? or *)";
const many = (n: number, item: unknown) => Array.from({ length: n }, () => item);

// Each record is added as { name: 'a', data: 1, ...record } on a server with --max-delay 1000.
const rows: Row[] = [
  // path
  { title: 'a numeric path', record: { path: 5 }, field: 'path', message: 'path must be a string such as users/:id' },
  { title: 'an empty path', record: { path: '' }, field: 'path', message: 'path must not be empty (the root, /endpoint/ itself, is "/")' },
  {
    title: 'a collection at the root',
    record: { path: '/', collection: true, data: [] },
    field: 'path',
    message: 'a collection needs a path of its own: its items are at <path>/<id>',
  },
  { title: 'a path of slashes', record: { path: '//' }, field: 'path', message: 'path must not be empty (the root, /endpoint/ itself, is "/")' },
  {
    title: 'a path of 33 segments',
    record: { path: Array.from({ length: 33 }, () => 'a').join('/') },
    field: 'path',
    message: 'path must have at most 32 segments',
  },
  {
    title: 'a path of 513 characters',
    record: { path: 'a'.repeat(513) },
    field: 'path',
    message: 'path must be at most 512 characters',
  },
  {
    title: 'two slashes',
    record: { path: 'a//b' },
    field: 'path',
    message: 'path: segment 2 is empty (two slashes in a row)',
  },
  {
    title: 'a space in a segment',
    record: { path: 'a b' },
    field: 'path',
    message: `path: segment 1 ('a b'): ${SEGMENT}`,
  },
  {
    title: 'a .. segment',
    record: { path: 'a/../b' },
    field: 'path',
    message: "path: segment 2 ('..'): '.' and '..' are not segments",
  },
  {
    title: 'a parameter name starting with a digit',
    record: { path: 'a/:1x' },
    field: 'path',
    message: "path: segment 2 (':1x'): a parameter name starts with a letter or _ and holds letters, digits and _",
  },
  {
    title: 'a repeated parameter',
    record: { path: ':id/:id' },
    field: 'path',
    message: "path: segment 2 (':id'): the parameter 'id' is named twice",
  },
  {
    title: 'an optional segment before a required one',
    record: { path: ':a?/:b' },
    field: 'path',
    message: "path: segment 2 (':b'): only the last segments may be optional",
  },
  {
    title: 'a static segment after an optional one',
    record: { path: ':a?/b' },
    field: 'path',
    message: "path: segment 2 ('b'): only the last segments may be optional",
  },
  {
    title: 'a wildcard in the middle',
    record: { path: 'a/*/b' },
    field: 'path',
    message: "path: segment 2 ('*'): a wildcard must be the last segment",
  },
  {
    title: 'a wildcard after an optional',
    record: { path: ':a?/*' },
    field: 'path',
    message: "path: segment 2 ('*'): a wildcard cannot follow an optional parameter",
  },
  // methods
  {
    title: 'methods as a string',
    record: { methods: 'GET' },
    field: 'methods',
    message: 'methods must be a non-empty list of HTTP methods such as ["GET", "PUT"]',
  },
  {
    title: 'no methods',
    record: { methods: [] },
    field: 'methods',
    message: 'methods must be a non-empty list of HTTP methods such as ["GET", "PUT"]',
  },
  {
    title: 'a method with a space',
    record: { methods: ['GET', 'PUT', 'BAD ONE'] },
    field: 'methods[2]',
    message: `methods[2] ${METHOD}`,
  },
  { title: 'a numeric method', record: { methods: [1] }, field: 'methods[0]', message: `methods[0] ${METHOD}` },
  {
    title: '33 methods',
    record: { methods: many(33, 'GET') },
    field: 'methods',
    message: 'methods must list at most 32 methods',
  },
  // data and body
  { title: 'data and body', record: { body: 'x' }, field: 'body', message: 'give one of data, body and base64Body, not data and body' },
  {
    title: 'body and base64Body',
    record: { data: undefined, body: 'x', base64Body: 'eA==' },
    field: 'base64Body',
    message: 'give one of data, body and base64Body, not body and base64Body',
  },
  ...['eA', 'eA==\n', 'e A==', 'eB==', 'eA=', '====', 'eA==eA==', 'eA-_', 7].map((base64Body) => ({
    title: `the base64Body ${JSON.stringify(base64Body)}`,
    record: { data: undefined, base64Body },
    field: 'base64Body',
    message: "base64Body must be the body's bytes in base64 (padded, without spaces or line breaks)",
  })),
  {
    title: 'a body that is not a string',
    record: { data: undefined, body: 1 },
    field: 'body',
    message: 'body must be a string (a raw text body); use data for JSON',
  },
  // delay
  {
    title: 'a delay range without max',
    record: { delay: { min: 1 } },
    field: 'delay.max',
    message: 'delay.max is required in a delay range',
  },
  {
    title: 'a negative delay.min',
    record: { delay: { min: -1, max: 5 } },
    field: 'delay.min',
    message: `delay.min ${DELAY}`,
  },
  {
    title: 'a delay.max over --max-delay',
    record: { delay: { min: 0, max: 1001 } },
    field: 'delay.max',
    message: `delay.max ${DELAY}`,
  },
  {
    title: 'delay.min over delay.max',
    record: { delay: { min: 9, max: 5 } },
    field: 'delay.min',
    message: 'delay.min must not be greater than delay.max',
  },
  {
    title: 'an unknown field in a delay',
    record: { delay: { min: 1, max: 2, mean: 1 } },
    field: 'delay.mean',
    message: /^unknown field 'delay.mean'; delay takes min, max$/,
  },
  // template, pick, fault
  {
    title: 'template as a string',
    record: { template: 'yes' },
    field: 'template',
    message: 'template must be true or false',
  },
  {
    title: 'an unknown pick',
    record: { pick: 'round-robin' },
    field: 'pick',
    message: 'pick must be one of first-match, sequence, random',
  },
  {
    title: 'an unknown fault',
    record: { fault: 'crash' },
    field: 'fault',
    message: 'fault must be one of reset, empty, malformed, hang',
  },
  {
    title: 'a faultRate without a fault',
    record: { faultRate: 0.5 },
    field: 'faultRate',
    message: 'faultRate needs a fault',
  },
  {
    title: 'a faultRate over 1',
    record: { fault: 'reset', faultRate: 1.5 },
    field: 'faultRate',
    message: 'faultRate must be a number from 0 to 1',
  },
  {
    title: 'a negative faultRate',
    record: { fault: 'reset', faultRate: -0.1 },
    field: 'faultRate',
    message: 'faultRate must be a number from 0 to 1',
  },
  // responses
  {
    title: 'responses as an object',
    record: { responses: {} },
    field: 'responses',
    message: 'responses must be a list of alternative answers',
  },
  {
    title: '101 responses',
    record: { responses: many(101, {}) },
    field: 'responses',
    message: 'responses must hold at most 100 answers',
  },
  {
    title: 'a response that is a string',
    record: { responses: ['x'] },
    field: 'responses[0]',
    message: 'responses[0] must be an object (an alternative answer)',
  },
  {
    title: 'an unknown field in a response',
    record: { responses: [{}, { status: 201 }] },
    field: 'responses[1].status',
    message: /^unknown field 'responses\[1\].status'; responses\[1\] takes when, statusCode/,
  },
  {
    title: 'a response statusCode of 600',
    record: { responses: [{ statusCode: 600 }] },
    field: 'responses[0].statusCode',
    message: 'responses[0].statusCode must be an integer from 200 to 599',
  },
  {
    title: 'a response with data and body',
    record: { responses: [{ data: 1, body: 'x' }] },
    field: 'responses[0].body',
    message: 'responses[0]: give one of data, body and base64Body, not data and body',
  },
  {
    title: 'a response body that is not a string',
    record: { responses: [{ body: {} }] },
    field: 'responses[0].body',
    message: 'responses[0].body must be a string (a raw text body); use data for JSON',
  },
  {
    title: 'a reserved header in a response',
    record: { responses: [{ headers: { Connection: 'close' } }] },
    field: 'responses[0].headers',
    message: "responses[0].headers: 'Connection' is set by the server and cannot be given",
  },
  {
    title: 'a response delay over --max-delay',
    record: { responses: [{ delay: 2000 }] },
    field: 'responses[0].delay',
    message: `responses[0].delay ${DELAY}`,
  },
  {
    title: 'an unknown response fault',
    record: { responses: [{ fault: 'boom' }] },
    field: 'responses[0].fault',
    message: 'responses[0].fault must be one of reset, empty, malformed, hang',
  },
  {
    title: 'a response faultRate without any fault',
    record: { responses: [{ faultRate: 0.1 }] },
    field: 'responses[0].faultRate',
    message: 'responses[0].faultRate needs a fault (in the response or the endpoint)',
  },
  // when
  {
    title: 'a when that is a list',
    record: { responses: [{ when: [] }] },
    field: 'responses[0].when',
    message: 'responses[0].when must be an object of the request parts to match',
  },
  {
    title: 'an unknown part in when',
    record: { responses: [{ when: { cookie: 'a' } }] },
    field: 'responses[0].when.cookie',
    message: /^unknown field 'responses\[0\].when.cookie'; responses\[0\].when takes method, params, query, headers/,
  },
  {
    title: 'a when.method that is not a method',
    record: { responses: [{ when: { method: 'GE T' } }] },
    field: 'responses[0].when.method',
    message: `responses[0].when.method ${METHOD}`,
  },
  {
    title: 'an empty when.method list',
    record: { responses: [{ when: { method: [] } }] },
    field: 'responses[0].when.method',
    message: 'responses[0].when.method must be a method name or a non-empty list of them',
  },
  {
    title: 'a bad method in a when.method list',
    record: { responses: [{ when: { method: ['GET', 7] } }] },
    field: 'responses[0].when.method[1]',
    message: `responses[0].when.method[1] ${METHOD}`,
  },
  {
    title: 'when.params on a path without that parameter',
    record: { path: 'u/:id', responses: [{ when: { params: { uid: '1' } } }] },
    field: 'responses[0].when.params',
    message: "responses[0].when.params: the path has no parameter 'uid' (it has 'id')",
  },
  {
    title: 'when.params on an endpoint without a path',
    record: { responses: [{ when: { params: { id: '1' } } }] },
    field: 'responses[0].when.params',
    message: "responses[0].when.params: the path has no parameter 'id' (it has none)",
  },
  {
    title: 'a numeric when.params value',
    record: { path: 'u/:id', responses: [{ when: { params: { id: 1 } } }] },
    field: 'responses[0].when.params',
    message: "responses[0].when.params: the value of 'id' must be a string",
  },
  {
    title: 'a numeric when.query value',
    record: { responses: [{}, { when: { query: { role: 1 } } }] },
    field: 'responses[1].when.query',
    message: 'responses[1].when.query must be an object of parameter names to a string or a non-empty list of strings',
  },
  {
    title: 'an empty when.query list',
    record: { responses: [{ when: { query: { role: [] } } }] },
    field: 'responses[0].when.query',
    message: 'responses[0].when.query must be an object of parameter names to a string or a non-empty list of strings',
  },
  {
    title: 'a when.headers name with a space',
    record: { responses: [{ when: { headers: { 'x y': '1' } } }] },
    field: 'responses[0].when.headers',
    message: "responses[0].when.headers: 'x y' is not a valid header name",
  },
  {
    title: 'a when.headers name given twice',
    record: { responses: [{ when: { headers: { 'X-A': '1', 'x-a': '2' } } }] },
    field: 'responses[0].when.headers',
    message: "responses[0].when.headers: 'x-a' is given twice",
  },
  {
    title: 'a when.body that is a list',
    record: { responses: [{ when: { body: [1] } }] },
    field: 'responses[0].when.body',
    message: "responses[0].when.body must be an object the request's JSON body contains",
  },
  // unknown top-level field
  {
    title: 'an unknown top-level field',
    record: { statuscode: 201 },
    field: 'statuscode',
    message: /^unknown field 'statuscode'; the record takes name, path, methods, statusCode, data, body/,
  },
  // templates at save
  {
    title: 'a template syntax error in data',
    record: { template: true, data: { a: ['{{#if x}}'] } },
    field: 'data.a[0]',
    message: /^template error: data.a\[0\]: Parse error on line 1/,
  },
  {
    title: 'a partial in a header',
    record: { template: true, headers: { 'X-A': '{{> evil}}' } },
    field: 'headers.X-A',
    message: `template error: headers.X-A: partials ({{> …}}) ${UNAVAILABLE} (line 1, column 1)`,
  },
  {
    title: 'a decorator in a response body',
    record: { template: true, responses: [{ body: 'a {{* d}}' }] },
    field: 'responses[0].body',
    message: `template error: responses[0].body: decorators ({{* …}}) ${UNAVAILABLE} (line 1, column 3)`,
  },
  {
    title: 'an unknown helper',
    record: { template: true, data: '{{exec "ls"}}' },
    field: 'data',
    message: "template error: data: unknown helper 'exec' (line 1, column 1)",
  },
  {
    title: 'an unknown faker method',
    record: { template: true, data: "{{faker 'person.password'}}" },
    field: 'data',
    message: `template error: data: faker has no method 'person.password' ${FAKER}`,
  },
  {
    title: 'a faker method reached through the prototype',
    record: { template: true, data: "{{faker 'person.constructor'}}" },
    field: 'data',
    message: `template error: data: faker has no method 'person.constructor' ${FAKER}`,
  },
  {
    title: '1,001 template expressions',
    record: { template: true, data: many(1001, '{{now}}') },
    field: 'data[1000]',
    message: /^template error: data\[1000\]: the templates of one endpoint may hold at most 1000 expressions in all/,
  },
];

describe('mock API: every field of the endpoint record is range-checked', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({ config: { maxDelay: 1000 } });
  });
  after(() => server.close());
  afterEach(async () => {
    const { endpoints } = await (await server.fetch('/api/endpoints')).json();
    expect(endpoints, 'nothing stored').to.deep.equal([]);
  });

  for (const row of rows) {
    it(`answers 400 naming ${row.field} to ${row.title}`, async () => {
      const res = await server.putJson('/api/endpoint/add', { name: 'a', data: 1, ...row.record });
      expect(res.status).to.equal(400);
      const body = await res.json();
      expect(body).to.have.all.keys('success', 'message', 'field');
      expect(body).to.include({ success: false, field: row.field });
      if (typeof row.message === 'string') expect(body.message).to.equal(row.message);
      else expect(body.message).to.match(row.message);
    });
  }
});
