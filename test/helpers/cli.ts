import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { track } from './children.js';
import { tempDir } from './temp.js';

export const CLI = fileURLToPath(new URL('../../bin/snippetkit.js', import.meta.url));

export type CliResult = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs `snippetkit ...args` to completion (as a user would, from the built CLI). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...cleanEnv(), ...env } });
    track(child, `snippetkit ${args.join(' ')}`);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(input);
  });
}

export type RunningCli = {
  child: ChildProcess;
  /** Resolves once stdout satisfies `ready` (e.g. holds its first line); rejects if the process ends first. */
  waitForStdout(ready: (stdout: string) => boolean): Promise<string>;
  /** Resolves when the process has ended. */
  done: Promise<CliResult>;
};

/** Starts `snippetkit ...args` and leaves it running (for --follow and other long-lived commands). */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...cleanEnv(), ...env } });
  track(child, `snippetkit ${args.join(' ')}`);
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (d) => {
    stdout += d;
    for (const check of waiters) check();
  });
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    child,
    done,
    waitForStdout(ready) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!ready(stdout)) return;
          waiters.delete(check);
          resolve(stdout);
        };
        waiters.add(check);
        check();
        void done.then(() => reject(new Error(`snippetkit ended before the awaited output: ${stdout}${stderr}`)));
      });
    },
  };
}

export type ServerProcess = {
  child: ChildProcess;
  url: string;
  /** The start-up line. */
  banner: string;
  /** What it has printed so far. */
  stdout(): string;
  stderr(): string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/**
 * Starts `snippetkit <command> --port 0 ...` and resolves once it prints its URL. With `dieWithTests`
 * it runs under setpriv so that it gets SIGKILL should the test process die first, even by SIGKILL
 * (setpriv execs node: the child's pid is the server's).
 */
export function startServerProcess(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  { dieWithTests = false }: { dieWithTests?: boolean } = {},
): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, CLI, ...args];
    if (dieWithTests) command.unshift('setpriv', '--pdeathsig=KILL', '--');
    const child = spawn(command[0]!, command.slice(1), { env: { ...cleanEnv(), ...env } });
    track(child, `snippetkit ${args.join(' ')}`);
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      const url = /http:\/\/[\d.]+:\d+/.exec(stdout)?.[0];
      if (url && stdout.includes('\n')) {
        resolve({
          child,
          url,
          banner: stdout.split('\n')[0],
          stdout: () => stdout,
          stderr: () => stderr,
          stop(signal = 'SIGTERM') {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
  });
}

let dataHome: string | undefined;

/** One data folder for the commands this test process starts, removed when it exits. */
function testDataHome(): string {
  if (!dataHome) {
    const made = tempDir('snippetkit-test-data-');
    process.once('exit', made.cleanup);
    dataHome = made.dir;
  }
  return dataHome;
}

/** The test runner's environment without the variables that configure snippetkit. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1' };
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('SNIPPETKIT_') && key !== 'PORT' && key !== 'FORCE_COLOR') env[key] = value;
  }
  // The machine user's data folder (the default data files, a generated key) is not the tests'.
  env.XDG_DATA_HOME = testDataHome();
  return env;
}

/** A real `serve-mocks` on a fresh data file, for the `describe` block that calls useMockProcess(). */
export type MockProcess = {
  readonly url: string;
  /** The temp folder that holds the data file; files written here go with it. */
  readonly dir: string;
  /** Writes `text` to `name` in the temp folder and gives its path. */
  file(name: string, text: string): string;
};

/** Starts the server before the block's tests and stops it (and removes its folder) after them. */
export function useMockProcess(): MockProcess {
  let temp: ReturnType<typeof tempDir> | undefined;
  let server: ServerProcess | undefined;
  before(async () => {
    temp = tempDir();
    server = await startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'mocks.sqlite')]);
  });
  after(async () => {
    await server?.stop();
    temp?.cleanup();
  });
  return {
    get url() {
      return server!.url;
    },
    get dir() {
      return temp!.dir;
    },
    file(name, text) {
      const path = join(temp!.dir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}
