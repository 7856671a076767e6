import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileRefused, leadsInside, NO_FILES, readGatedFile, type FileGate } from '../../src/gates/file-gate.js';
import { tempDir } from '../helpers/temp.js';

describe('the Files gate (readGatedFile)', () => {
  let temp: ReturnType<typeof tempDir>;
  let root: string;
  let gate: FileGate;
  beforeEach(() => {
    temp = tempDir();
    root = join(temp.dir, 'root');
    mkdirSync(join(root, 'sub'), { recursive: true });
    writeFileSync(join(root, 'sub', 'a.txt'), 'inside');
    writeFileSync(join(temp.dir, 'secret.txt'), 'the secret');
    gate = { root, maxBytes: 100, limitName: '--max-body', rootName: 'the folder' };
  });
  afterEach(() => temp.cleanup());

  /** What the gate says for `path`: the text, or `refused: <reason> [<code>]`. */
  const verdict = (path: string, with_: FileGate = gate) => {
    try {
      return readGatedFile(path, with_).toString();
    } catch (err) {
      expect(err).to.be.instanceOf(FileRefused);
      const { reason, code, path: named } = err as FileRefused;
      expect(named).to.equal(path);
      return `refused: ${reason}${code ? ` [${code}]` : ''}`;
    }
  };
  const OUT = 'refused: it is outside the folder';
  const LINK = 'refused: it leads outside the folder through a link';

  it('reads a regular file in the root, by a relative or an absolute path, `..` that stays inside too', () => {
    expect(verdict('sub/a.txt')).to.equal('inside');
    expect(verdict(join(root, 'sub', 'a.txt'))).to.equal('inside');
    expect(verdict('sub/../sub/a.txt')).to.equal('inside');
  });

  it('refuses `..`, an absolute path and an encoded or doubled way out', () => {
    expect(verdict('../secret.txt')).to.equal(OUT);
    expect(verdict('sub/../../secret.txt')).to.equal(OUT);
    expect(verdict(join(temp.dir, 'secret.txt'))).to.equal(OUT);
    expect(verdict('/etc/passwd')).to.equal(OUT);
    expect(verdict('//etc/passwd')).to.equal(OUT);
    // Whether a file outside is there is not told: the same answer for one that is not.
    expect(verdict('../nope.txt')).to.equal(OUT);
    expect(verdict('/etc/no-such-file')).to.equal(OUT);
    // Not a way out at all: a folder named %2e%2e, which is not there.
    expect(verdict('%2e%2e/secret.txt')).to.equal('refused: no such file [ENOENT]');
  });

  it('refuses a link leading out, to a file, through a folder, or through a chain of links', () => {
    symlinkSync(join(temp.dir, 'secret.txt'), join(root, 'file-link'));
    symlinkSync(temp.dir, join(root, 'folder-link'));
    symlinkSync(join(root, 'file-link'), join(root, 'chain'));
    expect(verdict('file-link')).to.equal(LINK);
    expect(verdict('folder-link/secret.txt')).to.equal(LINK);
    expect(verdict('chain')).to.equal(LINK);
    // A link that stays inside is followed.
    symlinkSync(join(root, 'sub', 'a.txt'), join(root, 'alias'));
    expect(verdict('alias')).to.equal('inside');
  });

  it('refuses a sibling folder whose name starts like the root', () => {
    mkdirSync(`${root}-other`);
    writeFileSync(join(`${root}-other`, 'b.txt'), 'the secret');
    expect(verdict(`../root-other/b.txt`)).to.equal(OUT);
    expect(verdict(join(`${root}-other`, 'b.txt'))).to.equal(OUT);
  });

  it('refuses what is not a regular file: a folder, a FIFO (without waiting for a writer), /dev/zero', () => {
    expect(verdict('sub')).to.equal('refused: not a regular file');
    execFileSync('mkfifo', [join(root, 'fifo')]);
    expect(verdict('fifo')).to.equal('refused: not a regular file');
    symlinkSync('/dev/zero', join(root, 'zero'));
    expect(verdict('zero')).to.equal(LINK);
    expect(verdict('/dev/zero', { root: '/dev', maxBytes: 100 })).to.equal('refused: not a regular file');
  });

  it('refuses a file past the cap unread, naming the setting, and reads one at the cap', () => {
    writeFileSync(join(root, 'at-cap'), 'x'.repeat(100));
    expect(verdict('at-cap')).to.equal('x'.repeat(100));
    writeFileSync(join(root, 'big'), '');
    truncateSync(join(root, 'big'), 10 * 1024 ** 3);
    expect(verdict('big')).to.equal(`refused: the file has ${10 * 1024 ** 3} bytes; at most 100 are read (--max-body)`);
  });

  it('says what the file system said, with its code: gone, or a file where a folder should be', () => {
    expect(verdict('nope.txt')).to.equal('refused: no such file [ENOENT]');
    expect(verdict('sub/a.txt/x')).to.equal('refused: a part of the path is not a folder [ENOTDIR]');
    symlinkSync(join(root, 'gone'), join(root, 'dangling'));
    expect(verdict('dangling')).to.equal('refused: no such file [ENOENT]');
  });

  it('with no root (a bin), reads nothing at all', () => {
    expect(verdict('sub/a.txt', NO_FILES)).to.equal('refused: reading files is not allowed');
    expect(verdict(join(root, 'sub', 'a.txt'), NO_FILES)).to.equal('refused: reading files is not allowed');
  });

  it('leadsInside tells a writer whether a folder stays inside once links are followed', () => {
    symlinkSync(temp.dir, join(root, 'out'));
    expect(leadsInside(join(root, 'sub'), root)).to.equal(true);
    expect(leadsInside(join(root, 'out'), root)).to.equal(false);
    expect(leadsInside(join(root, 'missing'), root)).to.equal(false);
  });
});
