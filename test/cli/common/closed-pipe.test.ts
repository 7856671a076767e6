import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { CLI } from '../../helpers/cli.js';

describe('output into a pipe that closes early', () => {
  it('ends quietly with exit 0 when the reader has gone (`--help | head -1`)', async () => {
    const child = spawn(process.execPath, [CLI, 'serve-mocks', '--help'], { env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // Our end closed before the help is written, as when `head -1` has already exited.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).to.equal('');
    expect(code).to.equal(0);
  });
});
