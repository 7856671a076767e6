/**
 * The preprocessors a panel can use, as recorded in a revision's `settings.processors`
 * (docs/bin-api.md). Shared by the server, which compiles, and the editor, which offers them.
 */
import type { Panels } from './assemble.js';

export type PanelName = keyof Panels;

/** Per panel, the processors it offers; the first is "no processor" (the panel's own language). */
export const PROCESSORS = {
  html: ['html', 'markdown', 'pug'],
  css: ['css', 'less', 'scss', 'stylus'],
  javascript: ['javascript', 'coffeescript', 'typescript', 'jsx'],
} as const satisfies Record<PanelName, readonly string[]>;

/** The three panels of a bin, in the order the editor shows them. */
export const PANELS = Object.keys(PROCESSORS) as PanelName[];

export type Processor = (typeof PROCESSORS)[PanelName][number];
/** A processor that compiles (everything but a panel's own language). */
export type Compiled = Exclude<Processor, PanelName>;

export const LABELS: Record<Processor, string> = {
  html: 'HTML',
  markdown: 'Markdown',
  pug: 'Pug',
  css: 'CSS',
  less: 'LESS',
  scss: 'SCSS',
  stylus: 'Stylus',
  javascript: 'JavaScript',
  coffeescript: 'CoffeeScript',
  typescript: 'TypeScript',
  jsx: 'JSX',
};

// JS Bin's own names for the same compilers, so bins saved by JS Bin clients keep theirs.
const ALIASES: Record<string, Processor> = {
  jade: 'pug',
  md: 'markdown',
  coffee: 'coffeescript',
  ts: 'typescript',
  styl: 'stylus',
  tsx: 'jsx',
};

export type ProcessorChoice = Record<PanelName, Processor>;

/** The processor of each panel in `settings`; anything unknown or missing is the panel's own language. */
export function processorsOf(settings: Record<string, unknown> | undefined): ProcessorChoice {
  const given = (settings?.processors ?? {}) as Record<string, unknown>;
  const pick = (panel: PanelName): Processor => {
    const raw = typeof given[panel] === 'string' ? (given[panel] as string).toLowerCase() : panel;
    const name = ALIASES[raw] ?? raw;
    return (PROCESSORS[panel] as readonly string[]).includes(name) ? (name as Processor) : panel;
  };
  return { html: pick('html'), css: pick('css'), javascript: pick('javascript') };
}

export function isCompiled(processor: string): processor is Compiled {
  return processor !== 'html' && processor !== 'css' && processor !== 'javascript' && processor in LABELS;
}

/** Where and why a compile failed; line and column count from 1. */
export type CompileError = { message: string; line?: number; column?: number };

export type CompileResult = { ok: true; code: string } | { ok: false; error: CompileError };

/** "LESS error on line 2, column 5: variable @x is undefined", as the output page and the editor show it. */
export function describeError(processor: Processor, { message, line, column }: CompileError): string {
  const at = line === undefined ? '' : ` on line ${line}${column === undefined ? '' : `, column ${column}`}`;
  return `${LABELS[processor]} error${at}: ${message}`;
}
