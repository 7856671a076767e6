import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

// examples/ as a user runs them: the package imported by its name (its `exports`, from dist/), its own mocha
// run without this suite's config, and tsc on the example with the package's published types.
describe('examples/mocks-in-mocha', function () {
  this.timeout(120_000);

  it('passes, using the public API only', async () => {
    const { stdout } = await run(bin('mocha'), ['--no-config', '--node-option', 'import=tsx', 'examples/mocks-in-mocha/*.test.ts'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    expect(stdout).to.match(/\b5 passing\b/);
    expect(stdout).to.not.match(/failing|pending/);
  });

  it('type-checks against the types the package ships', async () => {
    const { stdout } = await run(bin('tsc'), ['-p', 'examples/mocks-in-mocha'], { cwd: ROOT });
    expect(stdout).to.equal('');
  });
});
