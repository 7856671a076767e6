import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/temp.js';

const PREPARE = fileURLToPath(new URL('../../scripts/prepare.mjs', import.meta.url));

// npm's lifecycle scripts find npm through npm_execpath: a stand-in records whether a build was asked for
describe('npm prepare', () => {
  let temp: ReturnType<typeof tempDir>;
  let fakeNpm: string;
  const marker = () => join(temp.dir, 'ran');
  const prepare = (npmCommand: string) =>
    spawnSync(process.execPath, [PREPARE], { env: { ...process.env, npm_command: npmCommand, npm_execpath: fakeNpm } });

  beforeEach(() => {
    temp = tempDir();
    fakeNpm = join(temp.dir, 'fake-npm.mjs');
    const record = `writeFileSync(${JSON.stringify(marker())}, process.argv.slice(2).join(' '));`;
    writeFileSync(fakeNpm, `import { writeFileSync } from 'node:fs';\n${record}\n`);
  });
  afterEach(() => temp.cleanup());

  it('does not rebuild when npx links the project (the first `npx snippetkit` starts at once)', () => {
    expect(prepare('exec').status).to.equal(0);
    expect(existsSync(marker())).to.equal(false);
  });

  it('builds on npm install', () => {
    expect(prepare('install').status).to.equal(0);
    expect(readFileSync(marker(), 'utf8')).to.equal('run build');
  });
});
