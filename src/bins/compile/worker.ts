/**
 * The compile child process (started by pool.ts, never imported by the server). It runs with
 * Node's permission model: it may read only the package's own folders, and may not start processes,
 * workers or write files; its environment is empty. Pug templates run code, so they also run in a
 * fresh vm context that holds no host object (no `process`, no `require`). It has no network either
 * (offline.ts). After each answer the pool pings it: a pong means nothing of the last compile
 * still runs, as template code could only go on in microtasks, and those hold back every message.
 * Each compiler is loaded, and run once on a scrap (WARM_UP), when the pool first asks for it (`load`).
 */
import { runInNewContext } from 'node:vm';
import { lineColumn } from '../../shared/json-check.js';
import type { Compiled, CompileError, CompileResult } from '../../shared/processors.js';
import { FileRefused, NO_FILES, readGatedFile } from '../../gates/file-gate.js';
import { lazyPackage } from './lazy-package.js';
import { cutNetwork } from './offline.js';
import { compileScss, compileStylus } from './styles.js';

export type CompileRequest = { id: number; processor: Compiled; source: string; timeoutMs: number };
/** `timedOut`: the answer says nothing about the source, so it is not to be cached. */
export type CompileReply =
  | { id: number; result: CompileResult; timedOut?: true }
  | { ready: true }
  | { loaded: Compiled }
  | { pong: number; rss: number };
export type WorkerMessage = CompileRequest | { load: Compiled; timeoutMs: number } | { ping: number };

cutNetwork();

// Loaded by the pool's `load`, before the compile it is for, so the time limit measures compiling, not
// loading: together they take about 1.3 s (TypeScript and Sass about 0.5 s each), which a child paid at
// every start before, however few of them its compiles used.
const marked = lazyPackage<typeof import('marked')>('marked');
const pug = lazyPackage<{ compileClient(src: string, options: object): string }>('pug');
type Less = { render(src: string, options: object): Promise<{ css: string }>; environment: { fileManagers: object[] } };
const less = lazyPackage<Less>('less', (module) => module.environment.fileManagers.splice(0, Infinity, GATED_LESS));
const coffee = lazyPackage<{ compile(src: string, options: object): string }>('coffeescript');
const typescript = lazyPackage<typeof import('typescript')>('typescript');

/** Thrown for a failure we can place; anything else becomes its message alone. */
class PlacedError extends Error {
  constructor(message: string, readonly line?: number, readonly column?: number) {
    super(message);
  }
}

/** Thrown when the time limit stopped a compile: a failure of the moment, not of the source. */
class TimedOut extends Error {}

// LESS reads @import, @plugin, data-uri() and image-size() files through its file managers, the URL
// one included: a single manager that reads through the Files gate, whose answer for a bin is no file
// at all (NO_FILES); a first fence in front of the permission model and offline.ts.
type LessFile = { contents: string | Buffer; filename: string };
const GATED_LESS = {
  supports: () => true,
  supportsSync: () => true,
  loadFile: async (name: string, _dir: string, options?: { rawBuffer?: boolean }) => gatedLessFile(name, options),
  loadFileSync(name: string, _dir: string, options?: { rawBuffer?: boolean }): LessFile | { error: unknown } {
    try {
      return gatedLessFile(name, options);
    } catch (err) {
      return { error: err };
    }
  },
};
function gatedLessFile(name: string, options?: { rawBuffer?: boolean }): LessFile {
  try {
    const bytes = readGatedFile(name, NO_FILES);
    return { contents: options?.rawBuffer ? bytes : bytes.toString('utf8'), filename: name };
  } catch (err) {
    if (!(err instanceof FileRefused)) throw err;
    throw { type: 'File', message: `'${name}' was not read: ${err.reason}` };
  }
}

// Pug's include and extends read through this plugin, so through the gate; without it Pug itself refuses
// them only for want of a filename or basedir option.
const GATED_PUG = {
  resolve: (filename: string) => filename.trim(),
  read(filename: string): Buffer {
    try {
      return readGatedFile(filename, NO_FILES);
    } catch (err) {
      throw err instanceof FileRefused ? new Error(`'${filename}' was not read: ${err.reason}`) : err;
    }
  },
};

type Compile = (source: string, timeoutMs: number) => Promise<string> | string;

const COMPILERS: Record<Compiled, Compile> = {
  markdown(source) {
    return marked().marked.parse(source, { async: false });
  },

  pug(source, timeoutMs) {
    const options = { name: 'template', compileDebug: true, inlineRuntimeFunctions: true, plugins: [GATED_PUG] };
    const fn = pug().compileClient(source, options);
    // The template's code runs here, with nothing of ours in reach. The vm's own timeout stops a loop
    // without costing the child (the pool kills only later); 'afterEvaluate' runs the promise jobs the
    // template starts inside the evaluation, under that timeout, and none after it.
    const run = { timeout: timeoutMs, microtaskMode: 'afterEvaluate' } as const;
    try {
      return String(runInNewContext(`${fn}\ntemplate({});`, Object.create(null), run));
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        throw new TimedOut(`took longer than ${timeoutMs} ms and was stopped`);
      }
      // Pug's rethrow prefixes "Pug:<line>" and an excerpt to the message of an error in template code.
      const message = String((err as Error)?.message ?? err);
      const placed = /^Pug:(\d+)\n[\s\S]*?\n\n([\s\S]+)$/.exec(message);
      throw placed ? new PlacedError(placed[2]!, Number(placed[1])) : err;
    }
  },

  async less(source) {
    // @plugin loads a JavaScript file into this process: refused outright.
    const plugin = /@plugin\b/.exec(source);
    if (plugin) throw new PlacedError('@plugin is not allowed', ...at(source, plugin.index));
    try {
      return (await less().render(source, { javascriptEnabled: false })).css;
    } catch (err) {
      const e = err as { message: string; line?: number; column?: number };
      throw new PlacedError(e.message, e.line ?? undefined, e.column === undefined ? undefined : e.column + 1);
    }
  },

  coffeescript(source) {
    try {
      return coffee().compile(source, { bare: true });
    } catch (err) {
      const e = err as { message: string; location?: { first_line: number; first_column: number } };
      throw new PlacedError(e.message, lineOf(e.location?.first_line), lineOf(e.location?.first_column));
    }
  },

  typescript: (source) => transpile(source, 'bin.ts'),

  // JSX, with TypeScript's syntax too (TSX): React.createElement unless a `/** @jsx h */` comment names another.
  jsx: (source) => transpile(source, 'bin.tsx'),

  scss: compileScss,
  stylus: compileStylus,
};

/**
 * What the pool's `load` compiles before the first real compile of each processor: the compiler loads,
 * and its first run pays what a first run costs (Stylus reads its built-in functions, about 0.25 s),
 * outside the time limit.
 */
const WARM_UP: Record<Compiled, string> = {
  markdown: '# a',
  pug: 'p a',
  less: 'a { b: c }',
  coffeescript: 'a = 1',
  typescript: 'let a: number = 1',
  jsx: 'const a = <p />',
  scss: 'a { b: c }',
  stylus: 'a\n  b c',
};

function transpile(source: string, fileName: string): string {
  const ts = typescript();
  const out = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext, jsx: ts.JsxEmit.React },
  });
  const first = out.diagnostics?.[0];
  if (first) {
    const message = ts.flattenDiagnosticMessageText(first.messageText, '\n');
    if (!first.file || first.start === undefined) throw new PlacedError(message);
    const { line, character } = first.file.getLineAndCharacterOfPosition(first.start);
    throw new PlacedError(message, line + 1, character + 1);
  }
  return out.outputText;
}

function lineOf(zeroBased: number | undefined): number | undefined {
  return zeroBased === undefined ? undefined : zeroBased + 1;
}

function at(source: string, index: number): [number, number] {
  const { line, column } = lineColumn(source, index);
  return [line, column];
}

function toError(err: unknown): CompileError {
  const e = err as { msg?: string; message?: string; line?: number; column?: number };
  // Pug puts the bare message in `msg` and a multi-line excerpt in `message`.
  const message = String(e?.msg ?? e?.message ?? err).split('\n')[0]!;
  return {
    message,
    ...(typeof e?.line === 'number' && { line: e.line }),
    ...(typeof e?.column === 'number' && { column: e.column }),
  };
}

async function handle({ id, processor, source, timeoutMs }: CompileRequest): Promise<CompileReply> {
  try {
    return { id, result: { ok: true, code: await COMPILERS[processor](source, timeoutMs) } };
  } catch (err) {
    return { id, result: { ok: false, error: toError(err) }, ...(err instanceof TimedOut && { timedOut: true }) };
  }
}

process.on('message', (message: WorkerMessage) => {
  if ('ping' in message) process.send!({ pong: message.ping, rss: process.memoryUsage.rss() } satisfies CompileReply);
  else if ('load' in message) {
    // A package that fails to load throws in here: its failure is the warm-up's, and the compile then
    // fails on its own with the same message.
    const { load: processor, timeoutMs } = message;
    void handle({ id: 0, processor, source: WARM_UP[processor], timeoutMs }).then(() =>
      process.send!({ loaded: processor } satisfies CompileReply),
    );
  } else void handle(message).then((reply) => process.send!(reply));
});
// The server went away: nothing left to compile for.
process.on('disconnect', () => process.exit(0));
process.send!({ ready: true });
