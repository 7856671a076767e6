// Joins the CLI (tsc's output under dist/, from dist/cli/main.js) and the packages it loads into
// dist/bundle/cli.js, which bin/snippetkit.js runs: Node 20 has no compile cache for ES modules, and
// finding, reading and compiling some 225 modules (115 of ours) and 80 package.json files one by one was
// most of a server's start (bench/README.md, start-up). What a command loads lazily (the other commands,
// PostgreSQL and Redis, the OpenAPI parser, `_like`'s RE2) stays in chunks of its own, loaded when first
// needed, as before.
//
// Left out: sqlite3 (a native addon, found beside its package), and what the code loads with
// createRequire at run time (Handlebars, Faker, YAML; the compile children's compilers). The
// workers (the compile child, the `_like` worker) stay tsc's files, started by path.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
rmSync(`${root}dist/bundle`, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { cli: 'dist/cli/main.js' },
  outdir: 'dist/bundle',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['sqlite3'],
  // mime-types and its table loaded at their first use, not by Koa at every start (the file says why).
  alias: { 'mime-types': './scripts/bundle/mime-types.cjs' },
  // The CommonJS packages inside (Koa and its middleware) require Node's modules; an ES module has no
  // `require` of its own, so each file of the bundle makes one.
  banner: { js: "import { createRequire as __snippetkitRequire } from 'node:module'; const require = __snippetkitRequire(import.meta.url);" },
  metafile: true,
  logLevel: 'warning',
});

const bytes = Object.values(result.metafile.outputs).reduce((sum, out) => sum + out.bytes, 0);
const inputs = Object.keys(result.metafile.inputs).length;
console.log(`cli: dist/bundle/ (${inputs} files in ${(bytes / 1024).toFixed(0)} KB) in ${Math.round(performance.now() - started)} ms`);
