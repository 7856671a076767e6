// npm runs `prepare` after `npm install` in this folder, and again whenever `npx snippetkit` links
// the folder into npx's cache (a first run in a fresh cache): that second build made the first
// `npx snippetkit` sit silent for 5-17 s. Under npx (npm_command=exec) an existing build is used as
// it is; `npm install` and `npm run build` still build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const built = existsSync(new URL('../dist/bundle/cli.js', import.meta.url));
if (process.env.npm_command === 'exec' && built) process.exit(0);
const npm = process.env.npm_execpath;
const build = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(build.status ?? 1);
