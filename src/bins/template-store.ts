import type Keyv from 'keyv';
import type { Settings } from './store.js';

/** The server's starting point for new bins, as "Save as template" (or PUT /api/template) left it. */
export type Template = {
  html: string;
  javascript: string;
  css: string;
  settings: Settings;
  /** ISO 8601 time it was saved. */
  updated: string;
};

/** The template's methods of BinStore (see store.ts). */
export type TemplateStore = {
  /** The saved template; undefined when none is (new bins then start from the built-in starter). */
  template(): Promise<Template | undefined>;
  /** Replaces the template; resolves once it is written. */
  setTemplate(template: Omit<Template, 'updated'>): Promise<Template>;
  /** Forgets the saved template, if there is one. */
  clearTemplate(): Promise<void>;
};

/**
 * The record's key in the bins namespace. Bins live in tables of their own (sqlite-bins.ts); files from
 * before kept them here as `<id>` and `<id>/<rev>`, which no colon can spell, so moving them leaves it be.
 */
export const TEMPLATE_KEY = ':template';

/**
 * The template as one Keyv record. Kept in memory once read: this process is the file's only writer,
 * and every new editor (`GET /`) reads it. `null` means "read, and there is none".
 */
export function createTemplateStore(keyv: Keyv): TemplateStore {
  let cached: Template | null | undefined;
  return {
    async template() {
      if (cached === undefined) cached = ((await keyv.get(TEMPLATE_KEY)) as Template | undefined) ?? null;
      return cached ?? undefined;
    },
    async setTemplate(input) {
      const template: Template = { ...input, updated: new Date().toISOString() };
      cached = undefined; // a failed write must not leave the cache ahead of the file
      await keyv.set(TEMPLATE_KEY, template);
      cached = template;
      return template;
    },
    async clearTemplate() {
      cached = undefined;
      await keyv.delete(TEMPLATE_KEY);
      cached = null;
    },
  };
}
