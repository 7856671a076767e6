// Bundles the editor (src/client/editor, CodeMirror 6) and its stylesheet into dist/public/, which the bin
// server serves under /static/, and the mock server's page (src/client/mocks) into dist/mock-page/,
// which the mock server serves under /static/: no CDN, so both work offline. Each page gets its own
// bundle, so neither loads the other's code.
import { build } from 'esbuild';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
const shared = {
  absWorkingDir: root,
  outdir: 'dist',
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox110', 'safari16'],
  // maps are written for debugging here but not shipped (package.json `files`), so the bundles name none
  sourcemap: 'external',
  metafile: true,
  logLevel: 'warning',
};
// The embed page's chunks are named by their hash: last build's would otherwise pile up beside the new.
const CHUNK = /^embed-chunk-/;
const old = existsSync(`${root}dist/public`) ? readdirSync(`${root}dist/public`) : [];
for (const name of old.filter((file) => CHUNK.test(file))) rmSync(`${root}dist/public/${name}`);
const [result, embed] = await Promise.all([build({
  ...shared,
  entryPoints: [
    { in: 'src/client/editor/main.ts', out: 'public/editor' },
    { in: 'templates/editor.css', out: 'public/editor' },
    // JS Bin's embed snippet script (`<a class="jsbin-embed">`): a classic script for other sites' pages.
    { in: 'src/client/embed/links.ts', out: 'public/embed' },
    // "My bins": its Delete buttons and their dialog.
    { in: 'src/client/list/main.ts', out: 'public/list-page' },
    { in: 'src/client/mocks/main.ts', out: 'mock-page/page' },
  ],
}), build({
  ...shared,
  // The embed page: tabs and console up front; the highlighter and each grammar in chunks of their own,
  // loaded when a code panel needs them (an embed of the output alone loads none). Its own build, so
  // splitting leaves the editor's and mock page's single files as they are. The chunks sit beside it in
  // static/, imported by relative address, so a prefix the server is mounted under carries over.
  entryPoints: [{ in: 'src/client/embed/page.ts', out: 'public/embed-page' }],
  splitting: true,
  chunkNames: 'public/embed-chunk-[hash]',
})]);

const outputs = { ...result.metafile.outputs, ...embed.metafile.outputs };
const files = Object.keys(outputs).filter((file) => !file.endsWith('.map') && !file.endsWith('.txt'));
const entries = files.filter((file) => !CHUNK.test(file.replace(/^.*\//, '')));
const chunks = files.filter((file) => CHUNK.test(file.replace(/^.*\//, '')));
const chunkBytes = chunks.reduce((sum, file) => sum + statSync(`${root}/${file}`).size, 0);
const sizes = entries.map((file) => `${file} ${(statSync(`${root}/${file}`).size / 1024).toFixed(0)} KB`);
sizes.push(`${chunks.length} embed chunks ${(chunkBytes / 1024).toFixed(0)} KB`);
console.log(`client: ${sizes.join(', ')} in ${Math.round(performance.now() - started)} ms`);
