import { stopLeftovers, testStarted } from './children.js';

// Loaded by mocha for every run (.mocharc.json `require`): see children.ts.
const leaks: string[] = [];

export const mochaHooks = {
  beforeEach() {
    testStarted();
  },
  async afterEach(this: Mocha.Context) {
    const left = await stopLeftovers('test');
    // After a failure the test never got to its stop(): killing is the cleanup. After a pass it is a
    // leak, told at the end of the run (a failing root hook here would skip every test after it).
    if (left.length > 0 && this.currentTest?.state === 'passed') {
      leaks.push(`"${this.currentTest.fullTitle()}" left running: ${left.join('; ')}`);
    }
  },
  async afterAll() {
    const left = await stopLeftovers('suite');
    if (left.length > 0) leaks.push(`the suites' hooks left running: ${left.join('; ')}`);
    if (leaks.length > 0) throw new Error(`tests that passed left processes running:\n${leaks.join('\n')}`);
  },
};
