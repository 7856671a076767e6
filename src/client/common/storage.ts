import type { Panels } from '../../shared/assemble.js';
import { processorsOf, type ProcessorChoice } from '../../shared/processors.js';

/**
 * What the editor keeps in this browser's localStorage: unsaved code per bin revision, the API key
 * and the pane layout. Storage can be full or switched off; the editor then works without it.
 */
const PREFIX = 'snippetkit:';

function read(key: string): string | null {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    // Full or disabled: nothing to keep it in.
  }
}

/** Unsaved code and the preprocessors it is written for (drafts kept before they were recorded have none). */
export type Draft = Panels & { kept: string; processors?: ProcessorChoice };

/** Drafts are kept per revision being edited (`new` on `/`), so two tabs on two bins do not mix. */
export function draftKey(bin: string | null, rev: number | null): string {
  return bin === null ? 'draft:new' : `draft:${bin}/${rev}`;
}

export function loadDraft(key: string): Draft | undefined {
  try {
    const draft = JSON.parse(read(key) ?? 'null') as Draft | null;
    const texts = draft ? [draft.html, draft.css, draft.javascript] : [];
    if (!draft || !texts.every((text) => typeof text === 'string')) return undefined;
    // Storage is editable by hand: anything unknown becomes the panel's own language.
    const recorded = typeof draft.processors === 'object' && draft.processors !== null;
    const processors = recorded ? processorsOf(draft) : undefined;
    return { html: draft.html, css: draft.css, javascript: draft.javascript, kept: draft.kept, processors };
  } catch {
    return undefined;
  }
}

export function keepDraft(key: string, panels: Panels, processors: ProcessorChoice): void {
  const { html, css, javascript } = panels;
  const draft: Draft = { html, css, javascript, processors, kept: new Date().toISOString() };
  write(key, JSON.stringify(draft));
}

export function dropDraft(key: string): void {
  write(key, null);
}

export const apiKey = {
  get: (): string | null => read('api-key'),
  set: (key: string | null): void => write('api-key', key),
};

export const layout = {
  hidden: (): string[] => {
    try {
      const panes = JSON.parse(read('hidden-panes') ?? '[]') as unknown;
      return Array.isArray(panes) ? panes.filter((p): p is string => typeof p === 'string') : [];
    } catch {
      return [];
    }
  },
  setHidden: (panes: string[]): void => write('hidden-panes', JSON.stringify(panes)),
  /** Each pane's share of the row, by name (`../editor/resize.ts`); a pane not listed has the default. */
  sizes: (): Record<string, number> => {
    try {
      const sizes = JSON.parse(read('pane-sizes') ?? '{}') as unknown;
      if (typeof sizes !== 'object' || sizes === null) return {};
      // Edited by hand, a size could be anything: only positive numbers stand.
      const valid = Object.entries(sizes).filter(([, size]) => typeof size === 'number' && size > 0 && size < 1e6);
      return Object.fromEntries(valid) as Record<string, number>;
    } catch {
      return {};
    }
  },
  setSizes: (sizes: Record<string, number> | null): void => write('pane-sizes', sizes && JSON.stringify(sizes)),
};

/** The editor's "Auto-run JS" switch; on unless turned off. */
export const autorun = {
  get: (): boolean => read('autorun') !== 'off',
  set: (on: boolean): void => write('autorun', on ? null : 'off'),
};

export function samePanels(a: Panels, b: Panels): boolean {
  return a.html === b.html && a.css === b.css && a.javascript === b.javascript;
}

export function sameProcessors(a: ProcessorChoice, b: ProcessorChoice): boolean {
  return a.html === b.html && a.css === b.css && a.javascript === b.javascript;
}
