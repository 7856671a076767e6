import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../../../src/server/package-files.js';
import { runCli, startServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

// The CLI runs from a bundle (dist/bundle/, scripts/build-cli.mjs), a folder away from the modules it
// was made of: what it reads beside itself (package.json, config defaults, templates, the browser
// bundles) is found from the package's root, not from where a module sits.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe("the built CLI and the package's own files", function () {
  // Generous: each start loads the CLI and opens a store on a busy machine.
  this.timeout(60_000);

  it('takes the folder of the nearest package.json as the root', () => {
    expect(PACKAGE_ROOT).to.equal(ROOT);
  });

  it("prints package.json's version", async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    expect(result.stdout.trim()).to.equal(version);
  });

  const pages: [string, string, string][] = [
    ['serve-bins', '/', '/static/editor.js'],
    ['serve-mocks', '/static/', '/static/page.js'],
  ];
  for (const [command, page, script] of pages) {
    it(`${command} serves its page and the page's script`, async () => {
      const temp = tempDir();
      const server = await startServerProcess([command, '--port', '0', '--data', join(temp.dir, 'data.sqlite')]);
      try {
        const html = await fetch(server.url + page);
        expect(html.status).to.equal(200);
        expect(await html.text()).to.match(/^<!doctype html>/i);
        const js = await fetch(server.url + script);
        expect(js.status).to.equal(200);
        expect((await js.arrayBuffer()).byteLength).to.be.greaterThan(1000);
      } finally {
        await server.stop();
        temp.cleanup();
      }
    });
  }
});
