import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';

/**
 * The README's walkthrough, run as a new user would: `snippetkit` installed as its first line installs
 * it (`npm link`, into a folder of the test's own), then every `sh` block (not `sh skip`) in order, in
 * one shell, in an empty folder. Ports 3000 and 16540 are rewritten to free ones. A line that runs until
 * stopped (a server, a --follow) runs in the background until its first output line. When the same
 * server is started again, that line is first run once beside it and must exit saying to stop the
 * first (as a user who forgot it gets told); then the first gets Ctrl+C (a --follow before it, as it
 * would end with its server), or at the end, and must exit 0. Every other command must succeed (curl
 * fails on HTTP errors here).
 */
type Step = { kind: 'script'; text: string } | { kind: 'background'; command: string; name: string };

const README = new URL('../README.md', import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `npm link` as the README's first line runs it, with npm's global folder at `prefix`; gives the folder of the command. */
function linkInto(prefix: string): string {
  const npm = spawnSync('npm', ['link', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], {
    cwd: ROOT,
    env: { ...process.env, npm_config_prefix: prefix },
    encoding: 'utf8',
  });
  expect(npm.status, `npm link failed:\n${npm.stdout}${npm.stderr}`).to.equal(0);
  expect(npm.stderr, 'npm link printed a warning').to.equal('');
  return join(prefix, 'bin');
}

/** `text` as one word of a POSIX shell. */
const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const LONG_RUNNING = /\bsnippetkit (serve-bins|serve-mocks|serve)\b|\s--follow\b/;
/** Servers on the same port: a user stops one (Ctrl+C) before starting the other. */
const SAME_PORT: Record<string, string> = { serve: 'serve-bins', 'serve-bins': 'serve' };

function readmeSteps(markdown: string): Step[] {
  const steps: Step[] = [];
  for (const [, info, body] of markdown.matchAll(/^```(sh[^\n]*)\n([\s\S]*?)^```$/gm)) {
    if (info!.trim() !== 'sh') continue;
    let script: string[] = [];
    const flush = () => {
      if (script.some((line) => !/^\s*(#.*)?$/.test(line))) steps.push({ kind: 'script', text: script.join('\n') });
      script = [];
    };
    for (const line of body!.replace(/\\\n/g, '').split('\n')) {
      const long = LONG_RUNNING.exec(line);
      if (!long) {
        script.push(line);
        continue;
      }
      flush();
      // a trailing comment would swallow the redirections the shell adds
      steps.push({ kind: 'background', command: line.replace(/\s+#.*$/, ''), name: long[1] ?? 'follow' });
    }
    flush();
  }
  return steps;
}

const PRELUDE = `
set -E
curl() { command curl -sS --fail-with-body "$@" || return; echo; }
trap ': "\${__failed:=$BASH_COMMAND (exit $?)}"' ERR
exec 3>&1
`;

/** One bash that keeps its folder, variables and background jobs from block to block, like a terminal. */
function startShell(cwd: string, env: NodeJS.ProcessEnv) {
  const bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const ended = new Promise<void>((resolve) => bash.on('close', () => resolve()));
  bash.stdout.on('data', (d) => {
    out += d;
    for (const check of waiters) check();
  });
  bash.stderr.on('data', (d) => (err += d));
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const found = pattern.exec(out);
        if (!found) return;
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
      void ended.then(() => reject(new Error(`the shell ended: ${out}${err}`)));
    });
  bash.stdin.write(PRELUDE);
  return { bash, waitFor, send: (text: string) => bash.stdin.write(`${text}\n`), output: () => `${out}\n${err}` };
}

async function freePorts(count: number): Promise<number[]> {
  const listen = () =>
    new Promise<ReturnType<typeof createServer>>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
    });
  const servers = await Promise.all(Array.from({ length: count }, listen));
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

describe('README', function () {
  this.timeout(180_000);

  it('runs its walkthrough as written, block by block, on a fresh machine', async () => {
    const temp = tempDir();
    const [binPort, mockPort] = await freePorts(2);
    const markdown = readFileSync(README, 'utf8')
      .replace(/:3000\b/g, `:${binPort}`)
      .replace(/:16540\b/g, `:${mockPort}`);
    const installed = linkInto(join(temp.dir, 'npm-global'));
    const work = join(temp.dir, 'work');
    mkdirSync(work);
    const shell = startShell(work, {
      ...cleanEnv(),
      PATH: `${installed}:${process.env.PATH}`,
      HOME: join(temp.dir, 'home'),
      XDG_DATA_HOME: join(temp.dir, 'data'),
      PORT: String(binPort),
      SNIPPETKIT_MOCK_PORT: String(mockPort),
      SNIPPETKIT_BIN_SERVER: `http://127.0.0.1:${binPort}`,
      SNIPPETKIT_MOCK_SERVER: `http://127.0.0.1:${mockPort}`,
    });
    const running = new Map<string, { id: number; pid: number }>();
    const stop = async (name: string) => {
      const { id, pid } = running.get(name)!;
      running.delete(name);
      process.kill(pid, 'SIGINT');
      const [, code] = await shell.waitFor(new RegExp(`__EXIT_${id}__ (\\d+)`));
      expect(code, `Ctrl+C on ${name}:\n${shell.output()}`).to.equal('0');
    };
    try {
      const steps = readmeSteps(markdown);
      const started = steps.flatMap((s) => (s.kind === 'background' ? [s.name] : []));
      expect(started).to.include.members(['serve', 'serve-bins', 'serve-mocks']);
      expect(started[0], 'the README opens with the playground').to.equal('serve');
      for (const [id, step] of steps.entries()) {
        if (step.kind === 'script') {
          writeFileSync(join(temp.dir, `step-${id}.sh`), `${step.text}\n`);
          const file = join(temp.dir, `step-${id}.sh`);
          shell.send(`source ${file}; printf '\\n__STEP_${id}__ %s\\n' "\${__failed:-ok}"; __failed=`);
          const [, result] = await shell.waitFor(new RegExp(`__STEP_${id}__ (.*)\\n`));
          expect(result, `README block failed:\n${step.text}\n--- output ---\n${shell.output()}`).to.equal('ok');
          continue;
        }
        if (running.has(step.name)) {
          if (step.name !== 'follow') {
            // Started again while the first still runs: it must say to stop that one, and end.
            const said = join(temp.dir, `taken-${id}.txt`);
            shell.send(`timeout 30 bash -c ${quoted(step.command)} > ${said} 2>&1 && __t=0 || __t=$?; printf '\\n__TAKEN_${id}__ %s\\n' "$__t"`);
            const [, code] = await shell.waitFor(new RegExp(`__TAKEN_${id}__ (\\d+)\\n`));
            const output = readFileSync(said, 'utf8');
            expect(code, `${step.command} beside the first: ${output}`).to.not.be.oneOf(['0', '124']);
            expect(output, step.command).to.match(/^snippetkit: .*\bstop (that|the) server\b/);
            if (running.has('follow')) await stop('follow');
          }
          await stop(step.name);
        }
        const other = SAME_PORT[step.name];
        if (other && running.has(other)) await stop(other);
        // the group reports the pid, then the exit code, on the shell's own output (fd 3); the command's output
        // is tagged, to find its first line
        const group = `{ ${step.command} & p=$!; echo "__PID_${id}__ $p" >&3; wait $p; echo "__EXIT_${id}__ $?" >&3; }`;
        shell.send(`${group} > >(sed -u 's/^/__OUT_${id}__ /') 2>&1 &`);
        const [, pid] = await shell.waitFor(new RegExp(`__PID_${id}__ (\\d+)`));
        running.set(step.name, { id, pid: Number(pid) });
        const [first] = await shell.waitFor(new RegExp(`__OUT_${id}__ .*\\n|__EXIT_${id}__ \\d+`));
        expect(first, `${step.command} ended early:\n${shell.output()}`).to.match(/^__OUT_/);
      }
      for (const name of [...running.keys()].reverse()) await stop(name);
    } finally {
      for (const { pid } of running.values()) process.kill(pid, 'SIGKILL');
      shell.bash.stdin.end();
      temp.cleanup();
    }
  });
});
