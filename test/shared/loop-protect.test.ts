import { expect } from 'chai';
import { runInNewContext } from 'node:vm';
import { protectLoops } from '../../src/shared/loop-protect.js';

/**
 * Runs `code` protected, in a fresh context; what it warned, and the value of `result` after. With `tick`,
 * the page's clock is a counter that moves `tick` ms at each reading, so how long loops run does not depend on
 * how busy the machine is.
 */
function run(code: string, tick?: number): { warnings: string[]; result: unknown; ms: number } {
  const warnings: string[] = [];
  let now = 0;
  const clock = tick === undefined ? {} : { Date: { now: () => (now += tick) } };
  const context = { console: { warn: (text: string) => warnings.push(text) }, result: undefined as unknown, ...clock };
  const started = Date.now();
  // The vm timeout is only a backstop: an unguarded loop would fail the test with it, not hang the run.
  runInNewContext(protectLoops(code), context, { timeout: 10_000 });
  return { warnings, result: context.result, ms: Date.now() - started };
}

const exit = (line: number) => `Exiting potential infinite loop at line ${line}. To disable loop protection: add "// noprotect" to your code`;

describe('loop protection', () => {
  const endless: [string, string, number][] = [
    ['while', 'var result = 1;\nwhile (true) {}\nresult = 2;', 2],
    ['for', 'var result = 1;\n\nfor (;;) { result++; }\nresult = "after";', 3],
    ['do-while', 'var result;\ndo { result = 2 } while (true)', 2],
    // Both loops run on together: whichever is caught first, it is on line 2.
    ['for-of over an endless generator', 'var result = 0;\nfunction* g() { for (;;) yield 1; } for (const x of g()) result += x;', 2],
    ['a loop without braces', 'var result = 0;\nwhile (true) result++;', 2],
    ['a loop that is the body of an if', 'var result = 0;\nif (result === 0) while (true) result++;\nresult = "after"', 2],
    ['a labelled loop', 'var result = 0;\nouter: for (;;) { for (var i = 0; i < 3; i++) { continue outer; } }', 2],
    ['a loop inside a function', 'function spin() {\n  while (1) {}\n  return "back";\n}\nvar result = spin();', 2],
  ];
  for (const [what, code, line] of endless) {
    it(`breaks out of ${what} and names line ${line}`, () => {
      const { warnings, ms } = run(code);
      expect(warnings[0]).to.equal(exit(line));
      expect(ms).to.be.below(5_000);
    });
  }

  it('goes on after the loop it broke', () => {
    expect(run('var result = 1;\nwhile (true) {}\nresult = 2;').result).to.equal(2);
    expect(run('function spin() {\n  while (1) {}\n  return "back";\n}\nvar result = spin();').result).to.equal('back');
  });

  it('leaves loops that end alone, however often they are entered', () => {
    // Each call's loop takes about 1 ms of the page's clock and 2,000 calls about 2 s: only a loop whose
    // clock starts again at each entry lets them all run. Calls come from Array.from, which is no loop of the code.
    const code = 'var result = 0;\nfunction sum(n) { var s = 0; for (var i = 0; i < n; i++) s += i; return s; }\n' +
      'Array.from({ length: 2000 }, function () { result += sum(100); });\nvar o = { a: 1, b: 2 }; for (var key in o) result += o[key];';
    expect(run(code, 0.01)).to.deep.include({ warnings: [], result: 2000 * 4950 + 3 });
  });

  it('breaks out of a loop by the page\'s clock, whatever the machine\'s is', () => {
    const code = 'var result = 0;\nfor (var i = 0; i < 1e6; i++) result++;';
    // 1 ms a reading: the loop is stopped just past 100 passes.
    const { warnings, result } = run(code, 1);
    expect(warnings).to.deep.equal([exit(2)]);
    expect(result).to.be.within(95, 105);
  });

  it('keeps every line where it was', () => {
    const code = '"use strict";\nlet a = 0;\nwhile (a < 3)\n  a++;\nfor (const x of [1]) {\n  a += x;\n}\n';
    const protectedCode = protectLoops(code);
    expect(protectedCode.split('\n').length).to.equal(code.split('\n').length);
    expect(protectedCode.split('\n')[1]).to.equal('let a = 0;');
  });

  it('keeps a "use strict" directive first, so the code stays strict', () => {
    const out = protectLoops('"use strict";\nwhile (false) {}');
    expect(out.startsWith('"use strict";')).to.equal(true);
    expect(() => runInNewContext(protectLoops('"use strict";\nwhile (false) {}\nundeclared = 1;'), { console })).to.throw(/undeclared/);
  });

  it('does nothing to code with // noprotect, without loops, or that does not parse', () => {
    for (const code of ['// noprotect\nwhile (true) {}', 'var a = 1; // no loops here', 'while (true { oops', 'import x from "y"; for(;;){}']) {
      expect(protectLoops(code)).to.equal(code);
    }
  });
});
