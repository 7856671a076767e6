import { expect } from 'chai';
import Handlebars from 'handlebars';
import { compileRecord } from '../../../src/mocks/record/templates.js';
import { compileJson, compileText, TemplateError, type TemplateInput } from '../../../src/mocks/templates/template.js';
import { MAX_OUTPUT, useCpuBudget } from '../../../src/mocks/templates/helpers.js';
import { CpuBudgetExceeded, startCpuBudget } from '../../../src/gates/cpu-budget.js';

const input = (body: unknown = { items: [1, 2, 3], o: { constructor: 'own' } }): TemplateInput => ({
  params: { id: '7' },
  query: { role: 'admin', tag: ['a', 'b'] },
  headers: { 'x-a': 'b' },
  body,
  method: 'PUT',
  path: '/users/7',
});
const render = (source: string, body?: unknown) => compileText(source, 'body')(input(body));
const failure = (run: () => unknown): TemplateError => {
  try {
    run();
  } catch (err) {
    expect(err).to.be.instanceOf(TemplateError);
    return err as TemplateError;
  }
  throw new Error('expected a template error');
};

describe('templates', () => {
  it('sees params, query, headers, body, method and path', () => {
    const source = '{{params.id}} {{query.role}} {{query.tag.[1]}} {{headers.x-a}} {{body.items.[0]}}';
    const out = render(`${source} {{method}} {{path}}`);
    expect(out).to.equal('7 admin b b 1 PUT /users/7');
  });

  it('has now, uuid, randomInt, json and faker', () => {
    const source = '{{now}}|{{uuid}}|{{randomInt 5 6}}|{{json body}}|{{faker "person.fullName"}}';
    const [now, uuid, int, json, name] = render(source).split('|');
    expect(Math.abs(Date.parse(now!) - Date.now())).to.be.below(60_000);
    expect(now).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(uuid).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(['5', '6']).to.include(int);
    expect(JSON.parse(json!)).to.deep.equal(input().body);
    expect(name).to.match(/\S+ \S+/);
  });

  it('renders every string of a JSON value, keys and other values untouched, a __proto__ key kept', () => {
    const json = '{"id":"{{params.id}}","n":[1,"{{method}}"],"__proto__":{"{{k}}":"{{path}}"}}';
    expect(compileJson(json, 'data')(input())).to.equal('{"id":"7","n":[1,"PUT"],"__proto__":{"{{k}}":"/users/7"}}');
  });

  it('writes the JSON text JSON.stringify would: key order, numbers, nested and empty values', () => {
    const json = '{"b":"{{method}}","2":[1.50,true,null,{},"{{params.id}}"],"1":"x","a":[],"o":{"k":-0}}';
    const expected = '{"1":"x","2":[1.5,true,null,{},"7"],"b":"PUT","a":[],"o":{"k":0}}';
    expect(compileJson(json, 'data')(input())).to.equal(expected);
  });

  it('iterates like Handlebars #each: arrays, objects, @index, @key, @first, @last, else, block params, ../', () => {
    const body = { objs: [{ n: 'a', sub: [1, 2] }, { n: 'b', sub: [] }], m: { x: 1, y: 2 } };
    const source =
      '{{#each body.objs}}{{n}}:{{#each sub}}{{../n}}{{this}}{{@../index}}{{else}}none{{/each}};{{/each}}' +
      '{{#each body.m as |v k|}}{{k}}={{v}}{{#if @first}}F{{/if}}{{#if @last}}L{{/if}}{{@key}}{{/each}}' +
      '{{#body.objs}}<{{n}}>{{/body.objs}}';
    const stock = Handlebars.create().compile(source, { noEscape: true })(input(body));
    expect(stock).to.equal('a:a10a20;b:none;x=1Fxy=2Ly<a><b>');
    expect(render(source, body)).to.equal(stock);
  });

  // Text and plain paths are rendered without Handlebars (mocks/templates/direct.ts): the same text as Handlebars'.
  for (const source of [
    'user {{params.id}}!',
    '{{query.tag}} {{query.tag.[1]}} {{[query].role}} {{"method"}}',
    '{{headers.x-a}}{{body.items}}|{{body.items.length}}|{{params.id.length}}|{{body.o}}',
    '{{body.zero}} {{body.no}} {{body.none}} {{body.none.x}} {{missing.deep.path}} {{body.zero.x}}',
    'a {{! note }}\n  {{~ params.id ~}}  \n{{!-- long --}}\nb',
  ]) {
    it(`renders ${JSON.stringify(source)} as Handlebars does`, () => {
      const body = { items: [1, 2], o: {}, zero: 0, no: false, none: null };
      const runtime = { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false };
      const stock = Handlebars.create().compile(source, { noEscape: true })(input(body), runtime);
      expect(render(source, body)).to.equal(stock);
    });
  }

  it('fails plain paths past the output limit, naming the field', () => {
    const body = { big: 'x'.repeat(400_000) };
    expect(failure(() => render('{{body.big}}{{body.big}}{{body.big}}', body)).message).to.equal(
      `template error: body: the templates went over ${MAX_OUTPUT} characters of output for one request`,
    );
  });

  for (const source of [
    '{{constructor.constructor}}',
    '{{lookup this "constructor"}}',
    '{{__proto__}}',
    '{{body.items.constructor}}',
    '{{#with body.items}}{{constructor.name}}{{/with}}',
    '{{lookup (lookup body "items") "__proto__"}}',
    '{{body.toString}}',
  ]) {
    it(`gives nothing for ${source}`, () => {
      expect(render(source)).to.equal('');
    });
  }

  it('reads an own property named constructor of the request body', () => {
    expect(render('{{body.o.constructor}}')).to.equal('own');
  });

  for (const [source, message] of [
    ['{{> file}}', 'partials ({{> …}}) are not available in templates (line 1, column 1)'],
    ['{{#> layout}}x{{/layout}}', 'partials ({{> …}}) are not available in templates (line 1, column 1)'],
    ['x{{* decorator}}', 'decorators ({{* …}}) are not available in templates (line 1, column 2)'],
    ['{{#* inline "p"}}x{{/inline}}', 'decorators ({{* …}}) are not available in templates (line 1, column 1)'],
    ['{{log "spam"}}', "unknown helper 'log' (line 1, column 1)"],
    ['{{#if x}}{{require "fs"}}{{/if}}', "unknown helper 'require' (line 1, column 10)"],
    ['{{json (process "env")}}', "unknown helper 'process' (line 1, column 8)"],
    [
      "{{faker 'helpers.multiple'}}",
      "faker has no method 'helpers.multiple' (use 'module.method', such as 'person.fullName') (line 1, column 1)",
    ],
  ]) {
    it(`refuses ${source} when compiled`, () => {
      expect(failure(() => compileText(source!, 'body')).message).to.equal(`template error: body: ${message}`);
    });
  }

  it('checks a faker name that is not a literal when rendering', () => {
    const run = compileText('{{faker query.role}}', 'headers.X');
    expect(failure(() => run(input())).message).to.equal(
      "template error: headers.X: faker has no method 'admin' (use 'module.method', such as 'person.fullName')",
    );
  });

  it('stops a nested #each over a large body at the request\'s CPU budget', () => {
    const body = { items: Array.from({ length: 1000 }, (_, i) => i) };
    const run = compileText('{{#each body.items}}{{#each ../body.items}}{{/each}}{{/each}}', 'body');
    const request = input(body);
    useCpuBudget(request, startCpuBudget(20));
    const started = performance.now();
    expect(() => run(request)).to.throw(
      CpuBudgetExceeded,
      'the templates went over the CPU budget of one request (20 ms, --max-request-cpu)',
    );
    // A million passes: seconds without the budget. Generous for a loaded machine.
    expect(performance.now() - started).to.be.below(500);
  });

  it('fails on its output limit, counted over every field rendered for one request', () => {
    const body = { big: 'x'.repeat(400_000) };
    const json = '"{{body.big}}{{body.big}}"';
    const record = compileRecord({ name: 'a', statusCode: 200, delay: 0, json, headers: { 'X-A': '{{json body}}' } });
    const request = input(body);
    expect(record.answer.json!(request)).to.have.length(800_002);
    expect(failure(() => record.answer.headers![0]![1](request)).message).to.equal(
      `template error: headers.X-A: the templates went over ${MAX_OUTPUT} characters of output for one request`,
    );
    // A new request starts a new count.
    expect(record.answer.json!(input(body))).to.have.length(800_002);
  });

  it('fails a rendered header holding a line break', () => {
    const headers = { 'X-A': '{{query.role}}' };
    const record = compileRecord({ name: 'a', statusCode: 200, delay: 0, json: '1', headers });
    const request = { ...input(), query: { role: 'a\r\nSet-Cookie: x' } };
    expect(failure(() => record.answer.headers![0]![1](request)).message).to.equal(
      'template error: headers.X-A: the value has characters not allowed in a header',
    );
  });

  it('fails randomInt without two ordered integers', () => {
    for (const source of ['{{randomInt 5 1}}', '{{randomInt 1}}', '{{randomInt 1.5 3}}', '{{randomInt query.x 3}}']) {
      expect(failure(() => render(source)).message, source).to.match(/randomInt takes two integers/);
    }
  });

  it('leaves a string without {{ alone, whatever it holds', () => {
    expect(render('a {b} }} { {')).to.equal('a {b} }} { {');
  });
});
