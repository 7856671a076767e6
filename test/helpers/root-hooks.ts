import { runEnded, testEnded, testStarting } from './children.js';

// Loaded by mocha for every run (.mocharc.json `require`): see children.ts. Leaks are told at the end of
// the run: a failing root hook would skip every test after it.
export const mochaHooks = {
  async beforeEach(this: Mocha.Context) {
    if (this.currentTest) await testStarting(this.currentTest);
  },
  async afterEach(this: Mocha.Context) {
    if (this.currentTest) await testEnded(this.currentTest);
  },
  async afterAll() {
    const leaks = await runEnded();
    if (leaks.length > 0) throw new Error(`tests that passed left processes running:\n${leaks.join('\n')}`);
  },
};
