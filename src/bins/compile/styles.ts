/**
 * SCSS (Dart Sass) and Stylus for the compile child (worker.ts). Both can read files on their
 * own: Sass through @use/@import/meta.load-css, Stylus through @import/@require, json(), image-size(),
 * embedurl() (and a url() made by stylus.url()) and use() (which loads a JavaScript plugin). Each
 * such read asks the Files gate (src/gates/file-gate.ts), whose answer for a bin is "no file at all"
 * (NO_FILES), and becomes an error placed at its line: the first fence, in front of the child's
 * permission model and its cut network.
 */
import { createRequire } from 'node:module';
import { FileRefused, NO_FILES, readGatedFile } from '../../gates/file-gate.js';
import { lazyPackage } from './lazy-package.js';

/** A failure placed in the source; line and column count from 1. */
export type StyleError = { message: string; line?: number; column?: number };

const require = createRequire(import.meta.url);

/** The bytes of a file a bin's source names, through the Files gate; `what` words its refusal. */
function gatedRead(path: string, what: string): Buffer {
  try {
    return readGatedFile(path, NO_FILES);
  } catch (err) {
    throw err instanceof FileRefused ? new Error(`${what}: ${err.reason}`) : err;
  }
}

/**
 * For Stylus, whose readers are its own: the gate is asked, and a file it let through would still not be
 * handed to Stylus (there is no hook for the bytes), so the answer is no either way.
 */
function refuseRead(path: string, what: string): never {
  gatedRead(path, what);
  throw new Error(`${what}: Stylus reads no files here`);
}

// --- SCSS

/**
 * Every load goes through this one importer (compileString has no load paths, and the child no
 * SASS_PATH), which reads through the gate: no file or URL is read. A plain CSS @import is not a load.
 */
const GATED_LOADS = {
  canonicalize: (url: string) => new URL(`gated:${encodeURIComponent(url)}`),
  load(canonical: URL) {
    const url = decodeURIComponent(canonical.pathname);
    return { contents: gatedRead(url, `'${url}' was not loaded`).toString('utf8'), syntax: 'scss' as const };
  },
};

/** Dart Sass (about 0.6 s to load), loaded by the first SCSS compile's load, not by every child's start. */
const loadSass = lazyPackage<typeof import('sass')>('sass');

export function compileScss(source: string): string {
  const sass = loadSass();
  try {
    return sass.compileString(source, { importers: [GATED_LOADS], logger: sass.Logger.silent, style: 'expanded' }).css;
  } catch (err) {
    const e = err as { sassMessage?: string; message: string; span?: { start: { line: number; column: number } } };
    const start = e.span?.start;
    throw placed(e.sassMessage ?? e.message, start && start.line + 1, start && start.column + 1);
  }
}

// --- Stylus

type StylusNode = { name?: string; string?: string; first: StylusNode };
type StylusEvaluator = { return: number; visit(node: unknown): StylusNode };
type StylusImport = { once: boolean; path: unknown };
type StylusUrlArgument = { nodes: unknown[] };
type StylusModule = ((source: string) => { set(key: string, value: unknown): { render(): string } }) & {
  Evaluator: { prototype: { visitImport(this: StylusEvaluator, node: StylusImport): unknown } };
  Compiler: new (node: unknown) => { isURL: boolean; visit(node: unknown): string };
  nodes: { Literal: new (text: string) => unknown };
  url: unknown;
};

/** Stylus with its file reads gated, made by the first Stylus compile's load, not by every child's start. */
const loadStylus = lazyPackage<StylusModule>('stylus', (module) => {
  gateImports(module);
  gateFunctions();
  gateUrls(module);
});

// A plain CSS @import (a URL, or a .css file left for the browser) stays in the output, as Stylus leaves
// it; every other import would read a file, except the one Stylus makes itself of its built-in mixins.
function gateImports(module: StylusModule): void {
  const visitImport = module.Evaluator.prototype.visitImport;
  const BUILT_INS = require.resolve('stylus/lib/functions/index.styl');
  module.Evaluator.prototype.visitImport = function refuseImport(imported) {
    this.return++;
    const path = this.visit(imported.path).first;
    this.return--;
    const text = path.string ?? '';
    if (text === BUILT_INS) return visitImport.call(this, imported);
    const cssOnly = path.name === 'url' || /^['"]?(?:#|(?:https?:)?\/\/)/i.test(text) || /\.css$/i.test(text);
    if (cssOnly && !imported.once) return imported;
    refuseRead(text, `@${imported.once ? 'require' : 'import'} '${text}' was not loaded`);
  };
}

// Built-in functions that read files or load code: each asks the gate for the file it names (and is refused).
function gateFunctions(): void {
  const bifs = require('stylus/lib/functions') as Record<string, unknown>;
  for (const [name, verb] of [['json', 'read'], ['image-size', 'read'], ['use', 'loaded']] as const) {
    bifs[name] = (path?: { string?: string }) => {
      const text = String(path?.string ?? path);
      refuseRead(text, `${name}('${text}') was not ${verb}`);
    };
  }
}

// embedurl() (every evaluator puts one made by stylus.url() in its global scope) and any url() made by
// stylus.url() read the file a local URL names, of any type known or not: through the gate. A URL with a
// scheme or `//` stays a CSS url() for the browser, as Stylus leaves it.
function gateUrls(module: StylusModule): void {
  const gatedUrlFactory = () => {
    const fn = function (url: StylusUrlArgument) {
      const compiler = new module.Compiler(url);
      compiler.isURL = true;
      const text = url.nodes.map((node) => compiler.visit(node)).join('');
      if (/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(text)) return new module.nodes.Literal(`url("${text}")`);
      refuseRead(text.split(/[?#]/, 1)[0]!, `embedurl('${text}') was not read`);
    };
    fn.raw = true;
    return fn;
  };
  const URL_MODULE = require.resolve('stylus/lib/functions/url');
  require(URL_MODULE);
  require.cache[URL_MODULE]!.exports = gatedUrlFactory;
  module.url = gatedUrlFactory;
}

export function compileStylus(source: string): string {
  const render = loadStylus();
  try {
    return render(source).set('filename', 'stylus').render();
  } catch (err) {
    // Stylus puts "stylus:<line>:<column>", an excerpt and then the message in `message`.
    const message = String((err as Error)?.message ?? err);
    const at = /^stylus:(\d+):(\d+)/.exec(message);
    const text = message.split('\n\n').slice(1).join(' ').trim() || message.split('\n')[0]!;
    throw placed(text.split('\n')[0]!, at ? Number(at[1]) : undefined, at ? Number(at[2]) : undefined);
  }
}

function placed(message: string, line?: number, column?: number): StyleError {
  return { message, ...(line !== undefined && { line }), ...(column !== undefined && { column }) };
}
