import { expect } from 'chai';
import { CpuBudget, CpuBudgetExceeded } from '../../../src/gates/cpu-budget.js';
import { compileBodySchema } from '../../../src/mocks/verify/body-schema.js';
import { BUDGET_KEYWORD, withBudgetChecks } from '../../../src/mocks/verify/schema-budget.js';

// What one body's validation costs is the schema's choice: the budget must be checked inside it.
describe('bodySchema validation checks the CPU budget inside one body', () => {
  /** A budget that starts counting only once the schema is compiled, so only the validation spends it. */
  const compiled = (schema: Record<string, unknown>, limitMs: number) => {
    const budget = new CpuBudget(limitMs);
    const test = compileBodySchema(schema, budget);
    budget.resume();
    return test;
  };

  it('checks the budget as uniqueItems goes through a long array (ajv\'s own compares every pair, unchecked)', () => {
    // A budget that counts its checks: ajv's own uniqueItems would leave one, the root's.
    class Counted extends CpuBudget {
      checks = 0;
      override check(work: string): void {
        this.checks++;
        super.check(work);
      }
    }
    const budget = new Counted(60_000);
    const test = compileBodySchema({ uniqueItems: true }, budget);
    budget.checks = 0;
    const started = performance.now();
    expect(test(JSON.stringify(Array.from({ length: 20_000 }, (_, i) => [i])))).to.equal(undefined);
    expect(performance.now() - started, 'linear: 200 million pairs would take seconds').to.be.below(3000);
    expect(budget.checks).to.equal(1 + Math.ceil(20_000 / 256));
  });

  it('keeps uniqueItems\' meaning: equal JSON values are duplicates whatever their key order', () => {
    const test = compiled({ uniqueItems: true }, 60_000);
    expect(test('[{"a":1,"b":[2]},{"b":[2],"a":1}]')).to.deep.equal({
      at: '',
      expected: 'must NOT have duplicate items (items ## 0 and 1 are identical)',
      value: '[{"a":1,"b":[2]},{"b":[2],"a":1}]',
    });
    expect(test('[1, 1.0]')).to.have.property('expected').that.matches(/^must NOT have duplicate items/);
    expect(test('[1, "1", [1], {"1": 1}, null, false]')).to.equal(undefined);
    expect(test('{"not": "an array"}')).to.equal(undefined);
  });

  it('stops an anyOf of $refs at the budget within one body', () => {
    const $defs: Record<string, unknown> = { d30: { type: 'string' } };
    for (let i = 0; i < 30; i++) $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    const test = compiled({ $defs, $ref: '#/$defs/d0' }, 20);
    expect(() => test('1')).to.throw(CpuBudgetExceeded);
  });

  it('copies a schema key `__proto__` as a key, never as the copy\'s prototype', () => {
    const schema = JSON.parse('{"__proto__":{"type":"string"},"properties":{"__proto__":{"type":"string"}}}');
    const copy = withBudgetChecks(schema, false) as Record<string, any>;
    expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
    expect(Object.getOwnPropertyNames(copy)).to.deep.equal(['__proto__', 'properties', BUDGET_KEYWORD]);
    expect(copy.type, 'no keyword inherited from the schema\'s own object').to.equal(undefined);
    expect(Object.getOwnPropertyNames(copy.properties)).to.deep.equal(['__proto__']);
  });
});
