/**
 * SCSS (Dart Sass) and Stylus for the compile child (worker.ts). Both can read files on their
 * own: Sass through @use/@import/meta.load-css, Stylus through @import/@require, json(), image-size()
 * and use() (which loads a JavaScript plugin). Each is refused here with an error placed at its line,
 * a first fence in front of the child's permission model and its cut network.
 */
import { createRequire } from 'node:module';

/** A failure placed in the source; line and column count from 1. */
export type StyleError = { message: string; line?: number; column?: number };

const require = createRequire(import.meta.url);
const sass = require('sass') as typeof import('sass');
const stylus = require('stylus') as StylusModule;

// --- SCSS

/** Every load goes through the importers; the only one refuses, so no file or URL is ever read. */
const REFUSE_LOADS = {
  canonicalize(url: string): never {
    throw new Error(`'${url}' was not loaded: imports are not allowed`);
  },
  load: () => null,
};

export function compileScss(source: string): string {
  try {
    return sass.compileString(source, { importers: [REFUSE_LOADS], logger: sass.Logger.silent, style: 'expanded' }).css;
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
type StylusModule = ((source: string) => { set(key: string, value: unknown): { render(): string } }) & {
  Evaluator: { prototype: { visitImport(this: StylusEvaluator, node: StylusImport): unknown } };
};

// A plain CSS @import (a URL, or a .css file left for the browser) stays in the output, as Stylus leaves
// it; every other import would read a file, except the one Stylus makes itself of its built-in mixins.
const visitImport = stylus.Evaluator.prototype.visitImport;
const BUILT_INS = require.resolve('stylus/lib/functions/index.styl');
stylus.Evaluator.prototype.visitImport = function refuseImport(imported) {
  this.return++;
  const path = this.visit(imported.path).first;
  this.return--;
  const text = path.string ?? '';
  if (text === BUILT_INS) return visitImport.call(this, imported);
  const cssOnly = path.name === 'url' || /^['"]?(?:#|(?:https?:)?\/\/)/i.test(text) || /\.css$/i.test(text);
  if (cssOnly && !imported.once) return imported;
  throw new Error(`@${imported.once ? 'require' : 'import'} '${text}' was not loaded: imports are not allowed`);
};

// Built-in functions that read files or load code: each refuses, named.
const bifs = require('stylus/lib/functions') as Record<string, unknown>;
for (const name of ['json', 'image-size', 'use']) {
  bifs[name] = () => {
    throw new Error(`${name}() is not allowed: it reads files`);
  };
}

export function compileStylus(source: string): string {
  try {
    return stylus(source).set('filename', 'stylus').render();
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
