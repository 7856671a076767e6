import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sampleJson } from '../../../src/mocks/sample/sample-json.js';
import { samplePattern } from '../../../src/mocks/sample/sample-pattern.js';

type Json = Record<string, unknown>;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

/** The sample of `schema` (in a document whose components are `spec`), checked against the schema by ajv. */
function validSample(schema: Json, spec: Json = {}): unknown {
  const value = sampleJson(schema, spec);
  const validate = ajv.compile({ ...schema, ...spec });
  expect(validate(value), `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
  return value;
}

/** A chain of `depth` objects, each requiring the next. */
function chain(depth: number): Json {
  let schema: Json = { type: 'object', required: ['leaf'], properties: { leaf: { type: 'string', format: 'uuid' } } };
  for (let i = 0; i < depth; i++) schema = { type: 'object', required: ['next'], properties: { next: schema, extra: { type: 'integer' } } };
  return schema;
}

/** Twelve levels of schemas, each requiring eight properties of the next. */
function wide(): Json {
  const schemas: Json = { Level12: { type: 'integer' } };
  for (let level = 0; level < 12; level++) {
    const names = Array.from({ length: 8 }, (_, i) => `p${i}`);
    const next = { $ref: `#/components/schemas/Level${level + 1}` };
    schemas[`Level${level}`] = { type: 'object', required: names, properties: Object.fromEntries(names.map((name) => [name, next])) };
  }
  return { components: { schemas } };
}

describe('samples of response schemas (sample-json.ts)', () => {
  it('keeps what is required below the depth to which optional properties are sampled', () => {
    const text = JSON.stringify(validSample(chain(20)));
    expect(text).to.contain('"leaf":"095be615-a8ad-4c33-8e9c-c7612fbf6c9f"');
    // The optional `extra` on the 11 levels from the top (depth 0 to 10), not on the 10 below.
    expect(text.match(/"extra"/g)).to.have.length(11);
  });

  it('samples a self-reference below itself with what it requires, never an empty object', () => {
    const spec = {
      components: {
        schemas: {
          Node: {
            type: 'object',
            required: ['id', 'children'],
            properties: { id: { type: 'integer' }, children: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/Node' } }, parent: { $ref: '#/components/schemas/Node' } },
          },
        },
      },
    };
    // Every node needs a child: no finite value meets it, and the sample still ends, bounded.
    const started = performance.now();
    const value = sampleJson({ $ref: '#/components/schemas/Node' }, spec) as Json;
    expect(performance.now() - started).to.be.below(2_000);
    expect(value).to.have.property('id', 0);
    expect((value.children as Json[])[0]).to.have.property('id', 0);
    expect(JSON.stringify(value).length).to.be.below(2_000_000);
  });

  it('bounds a schema that requires 8^12 values at 40,000 of them', () => {
    const started = performance.now();
    const text = JSON.stringify(sampleJson({ $ref: '#/components/schemas/Level0' }, wide()));
    expect(performance.now() - started).to.be.below(2_000);
    expect(text.match(/"p\d"/g)!.length).to.be.within(30_000, 41_000);
  });

  it('bounds what all the samples of one document build, past it each an empty value of its type', () => {
    const spec = wide();
    const sizes = Array.from({ length: 60 }, () => JSON.stringify(sampleJson({ $ref: '#/components/schemas/Level0' }, spec)).length);
    expect(sizes[0]).to.be.above(200_000);
    expect(sizes.at(-1)).to.equal(2);
    // Another document has a budget of its own.
    expect(JSON.stringify(sampleJson({ $ref: '#/components/schemas/Level0' }, wide())).length).to.equal(sizes[0]);
  });

  const endless: [string, Json][] = [
    ['a oneOf of itself', { oneOf: [{ $ref: '#/components/schemas/A' }] }],
    ['an anyOf of itself beside properties', { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ $ref: '#/components/schemas/A' }] }],
    ['an allOf of itself, a hundred times', { allOf: Array.from({ length: 100 }, () => ({ $ref: '#/components/schemas/A' })) }],
  ];
  for (const [title, schema] of endless) {
    it(`ends on ${title}, at once`, () => {
      const started = performance.now();
      sampleJson({ $ref: '#/components/schemas/A' }, { components: { schemas: { A: schema } } });
      expect(performance.now() - started).to.be.below(1_000);
    });
  }

  const cases: [string, Json][] = [
    ['a pattern', { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' }],
    ['a pattern with groups and alternatives', { type: 'string', pattern: '^#?([a-f0-9]{6}|[a-f0-9]{3})$', minLength: 4 }],
    ['formats', { type: 'object', required: ['a', 'b', 'c', 'd', 'e'], properties: { a: { type: 'string', format: 'byte' }, b: { type: 'string', format: 'date-time' }, c: { type: 'string', format: 'email' }, d: { type: 'string', format: 'uri' }, e: { type: 'string', format: 'ipv6' } } }],
    ['minItems with unique enum items', { type: 'array', minItems: 3, uniqueItems: true, items: { enum: ['a', 'b', 'c', 'd'] } }],
    ['minItems with unique numbers', { type: 'array', minItems: 3, uniqueItems: true, items: { type: 'integer', minimum: 5 } }],
    ['bounds and multipleOf', { type: 'object', required: ['a', 'b'], properties: { a: { type: 'number', exclusiveMinimum: 10, multipleOf: 5 }, b: { type: 'integer', maximum: -3 } } }],
    ['minLength and maxLength', { type: 'object', required: ['a', 'b'], properties: { a: { type: 'string', minLength: 20 }, b: { type: 'string', maxLength: 3 } } }],
    ['minProperties over additionalProperties', { type: 'object', minProperties: 3, additionalProperties: { type: 'boolean' } }],
    ['a required name whose property another allOf member describes', { allOf: [{ type: 'object', properties: { kind: { type: 'string', enum: ['x'] } } }, { required: ['kind'] }] }],
    ['an allOf of one $ref-like member beside a description', { allOf: [{ type: 'integer', minimum: 3 }], description: 'an id' }],
    ['a nullable choice', { anyOf: [{ type: 'null' }, { type: 'object', required: ['a'], properties: { a: { type: 'string' } } }] }],
  ];
  for (const [title, schema] of cases) {
    it(`samples ${title} to a value the schema accepts`, () => {
      validSample(schema);
    });
  }

  it("merges allOf members' own examples over the sample", () => {
    const value = validSample({
      allOf: [
        { type: 'object', required: ['id'], properties: { id: { type: 'integer' } }, example: { id: 7 } },
        { type: 'object', properties: { name: { type: 'string' } }, example: { name: 'Rex' } },
      ],
    });
    expect(value).to.deep.equal({ id: 7, name: 'Rex' });
  });

  it('passes over an example or default of another type than the schema', () => {
    const value = validSample({ type: 'object', required: ['a', 'b'], properties: { a: { type: 'object', default: null }, b: { type: 'object', example: '{"x":1}', properties: { x: { type: 'integer' } } } } });
    expect(value).to.deep.equal({ a: {}, b: { x: 0 } });
  });

  it('leaves writeOnly properties out', () => {
    expect(validSample({ type: 'object', properties: { password: { type: 'string', writeOnly: true }, name: { type: 'string' } } })).to.deep.equal({ name: 'string' });
  });
});

describe('strings for patterns (sample-pattern.ts)', () => {
  const matches = ['^/v1/balance_transactions', '^[a-zA-Z0-9_\\-\\:]+$', '(foo|bar)+baz?', '[^/]+', '^\\S+@\\S+\\.\\S+$', '^(\\([0-9]{3}\\))?[0-9]{3}-[0-9]{4}$', '^(?:v\\d+)\\.(?<minor>\\d)$', '[\\w.-]+'];
  for (const pattern of matches) {
    it(`makes a string ${pattern} matches`, () => {
      const text = samplePattern(pattern);
      expect(text).to.be.a('string');
      expect(new RegExp(pattern).test(text!), text).to.equal(true);
    });
  }

  const refused = ['^(?=a)b', '(a)\\1', '\\p{L}+', 'a{1001}', 'x'.repeat(1_001), '*a', '[a-'];
  for (const pattern of refused) {
    it(`gives up on ${pattern.slice(0, 20)}, for the caller's plain string`, () => {
      expect(samplePattern(pattern)).to.equal(undefined);
    });
  }

  it('never makes more than 1,024 characters', () => {
    expect(samplePattern('(a{256}){256}')).to.equal(undefined);
    expect(samplePattern('a{200,}', 0, true)!.length).to.equal(203);
  });
});
