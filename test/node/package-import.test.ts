import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from '../helpers/temp.js';

// What `import 'snippetkit'` costs a test suite that never starts a server (issue 27): no CLI code, no
// files, no listeners, nothing that keeps the process alive. Reads dist/: `npm run build` first.
const entry = createRequire(import.meta.url).resolve('snippetkit');
const dist = resolve(dirname(entry), '..');

/** Every module of ours the entry can load, static and dynamic imports alike, by following relative specifiers. */
function importGraph(start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      visit(resolve(dirname(file), specifier!));
    }
  };
  visit(start);
  return seen;
}

describe("the package's main export", () => {
  it('is dist/node/index.js, and what it can load holds no CLI code', () => {
    expect(relative(dist, entry)).to.equal(join('node', 'index.js'));
    const files = [...importGraph(entry)].map((file) => relative(dist, file));
    // The walk reaches both servers (a walk that found nothing would pass the check below).
    expect(files).to.include.members([join('node', 'bin-server.js'), join('bins', 'app.js'), join('mocks', 'app.js')]);
    expect(files.filter((file) => /^(cli|bundle)\//.test(file))).to.deep.equal([]);
  });

  it('starts nothing on import: no files written, no listeners, no handles, no output', async function () {
    this.timeout(30_000);
    const temp = tempDir();
    try {
      // Every place the package could write by default: the working folder, home and data folders, temp.
      const folders = ['work', 'home', 'data', 'config', 'cache', 'tmp'].map((name) => join(temp.dir, name));
      for (const folder of folders) mkdirSync(folder);
      const [work, home, data, config, cache, tmp] = folders as [string, string, string, string, string, string];
      const script = `
        const listeners = () => process.eventNames().map((name) => String(name) + ':' + process.listenerCount(name)).sort();
        // Not counted: stdio streams (a package's \`import process from 'node:process'\` makes Node create them,
        // env-paths' among them) and the loader's own closing of the files it read.
        const resources = () => process.getActiveResourcesInfo().filter((kind) => !/^(PipeWrap|TTYWrap|CloseReq)$/.test(kind));
        const before = { listeners: listeners(), resources: resources() };
        const api = await import(${JSON.stringify(pathToFileURL(entry).href)});
        await new Promise((settled) => setImmediate(settled));
        const after = { listeners: listeners(), resources: resources() };
        process.stdout.write(JSON.stringify({ before, after, exports: Object.keys(api).sort() }));`;
      const env = { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: data, XDG_CONFIG_HOME: config, XDG_CACHE_HOME: cache, TMPDIR: tmp };
      const run = promisify(execFile);
      const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: work, env, timeout: 20_000 });
      const got = JSON.parse(stdout) as { before: unknown; after: unknown; exports: string[] };
      expect(got.exports).to.include.members(['startBinServer', 'startMockServer', 'BinApiError', 'MockApiError', 'SettingsError']);
      expect(got.after).to.deep.equal(got.before);
      expect(stderr).to.equal('');
      for (const folder of folders) expect(readdirSync(folder, { recursive: true }), folder).to.deep.equal([]);
    } finally {
      temp.cleanup();
    }
  });
});
