import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

// File modes do not stop root: as root the server runs without CAP_DAC_OVERRIDE (util-linux's setpriv),
// so they do. Not as another user: a fresh clone under a root-only temp folder is not readable by one.
const asRoot = process.getuid?.() === 0;
const command = (args: string[]): [string, string[]] =>
  asRoot
    ? ['setpriv', ['--bounding-set', '-dac_override', '--inh-caps', '-dac_override', '--', process.execPath, ...args]]
    : [process.execPath, args];

type Result = { code: number | null; stderr: string; listened: boolean };

/** Starts `snippetkit serve-*`; one that listens instead of refusing is stopped and reported as such. */
function serve(args: string[]): Promise<Result> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH, NO_COLOR: '1' };
    const child = spawn(...command([CLI, ...args, '--port', '0']), { env });
    let stderr = '';
    let listened = false;
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', () => {
      listened = true;
      child.kill();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, listened }));
  });
}

describe('serve-bins and serve-mocks refuse a data file they could not write', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(() => temp.cleanup());

  for (const command of ['serve-bins', 'serve-mocks']) {
    it(`${command} exits 3 naming a read-only data file`, async () => {
      const folder = join(temp.dir, 'open');
      mkdirSync(folder, { mode: 0o777 });
      chmodSync(folder, 0o777);
      const file = join(folder, 'data.sqlite');
      writeFileSync(file, '');
      chmodSync(file, 0o444);
      const result = await serve([command, '--data', file]);
      expect(result.listened, 'it must not start').to.equal(false);
      expect(result.code).to.equal(3);
      expect(result.stderr).to.include(`snippetkit: cannot write the data file ${file}: EACCES`);
      expect(result.stderr).to.include('make it writable or pass --data with another file');
    });

    it(`${command} exits 3 naming a folder it cannot write in, even when the file itself is writable`, async () => {
      const folder = join(temp.dir, 'closed');
      mkdirSync(folder);
      const file = join(folder, 'data.sqlite');
      writeFileSync(file, '');
      chmodSync(file, 0o666);
      chmodSync(folder, 0o555);
      const result = await serve([command, '--data', file]);
      expect(result.listened, 'it must not start').to.equal(false);
      expect(result.code).to.equal(3);
      expect(result.stderr).to.include(`snippetkit: cannot use the folder ${folder} for the data file: EACCES`);
    });
  }
});
