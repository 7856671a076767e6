import { expect } from 'chai';
import { responseLabel } from '../../src/shared/response-label.js';

// One response as one line (src/shared/response-label.ts): the page, `mock get` and `mock log` show it.
describe('response labels', () => {
  const cases: [string, Parameters<typeof responseLabel>[1], string][] = [
    ['a state it needs, and the one it sets', { when: { state: 'item added' }, statusCode: 201, data: {}, setState: 'paid' },
      '#1 state item added → 201 JSON, then state paid'],
    ['a state beside a method', { when: { method: ['POST'], state: 'paid' }, data: 1 }, '#1 POST · state paid → 200 JSON'],
    ['no state at all', { when: { method: 'GET' }, body: 'x' }, '#1 GET → 200 text'],
  ];
  for (const [title, response, label] of cases) {
    it(`labels ${title}`, () => expect(responseLabel(0, response, 200)).to.equal(label));
  }
});
