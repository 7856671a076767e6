// Bundles the editor (src/client/editor, CodeMirror 6) and its stylesheet into dist/public/, which the bin
// server serves under /static/, and the mock server's page (src/client/mocks) into dist/mock-page/,
// which the mock server serves under /static/: no CDN, so both work offline. Each page gets its own
// bundle, so neither loads the other's code.
import { build } from 'esbuild';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
const result = await build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'src/client/editor/main.ts', out: 'public/editor' },
    { in: 'templates/editor.css', out: 'public/editor' },
    // The embed page's console, and JS Bin's embed snippet script (`<a class="jsbin-embed">`).
    { in: 'src/client/embed/page.ts', out: 'public/embed-page' },
    { in: 'src/client/embed/links.ts', out: 'public/embed' },
    // "My bins": its Delete buttons and their dialog.
    { in: 'src/client/list/main.ts', out: 'public/list-page' },
    { in: 'src/client/mocks/main.ts', out: 'mock-page/page' },
  ],
  outdir: 'dist',
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox110', 'safari16'],
  // maps are written for debugging here but not shipped (package.json `files`), so the bundles name none
  sourcemap: 'external',
  metafile: true,
  logLevel: 'warning',
});

const files = Object.keys(result.metafile.outputs).filter((file) => !file.endsWith('.map') && !file.endsWith('.txt'));
const sizes = files.map((file) => `${file} ${(statSync(`${root}/${file}`).size / 1024).toFixed(0)} KB`);
console.log(`client: ${sizes.join(', ')} in ${Math.round(performance.now() - started)} ms`);
