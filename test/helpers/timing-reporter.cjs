// mocha's spec reporter, which also writes each test's and hook's file, title and duration as JSON to the
// file SNIPPETKIT_TEST_TIMINGS names (scripts/test.mjs reads them: the groups' balance, the slowest tests).
// Hooks count because a server started in a `before` takes its time there, out of every test's figure.
// CommonJS because mocha loads a reporter with require.
const { writeFileSync } = require('node:fs');
const { relative } = require('node:path');
const Mocha = require('mocha');

const { EVENT_TEST_END, EVENT_HOOK_END, EVENT_RUN_END } = Mocha.Runner.constants;

class TimingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const rows = [];
    const add = (runnable) => {
      rows.push({ file: relative(process.cwd(), runnable.file ?? ''), title: runnable.fullTitle(), ms: runnable.duration ?? 0 });
    };
    runner.on(EVENT_TEST_END, add);
    runner.on(EVENT_HOOK_END, add);
    runner.once(EVENT_RUN_END, () => {
      if (process.env.SNIPPETKIT_TEST_TIMINGS) writeFileSync(process.env.SNIPPETKIT_TEST_TIMINGS, JSON.stringify(rows));
    });
  }
}

module.exports = TimingReporter;
