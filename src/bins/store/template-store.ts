import type Keyv from 'keyv';
import type { TemplateRecord } from '../engines/engine.js';
import type { Template } from '../engines/records.js';

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
 * The record's key in the bins namespace of a SQLite file's Keyv. Bins live in tables of their own
 * (../engines/sqlite.ts); files from before kept them here as `<id>` and `<id>/<rev>`, which no colon can
 * spell, so moving them leaves it be.
 */
export const TEMPLATE_KEY = ':template';

/** The template as one Keyv record (the SQLite engine's). */
export function keyvTemplate(keyv: Keyv): TemplateRecord {
  return {
    get: async () => (await keyv.get(TEMPLATE_KEY)) as Template | undefined,
    set: async (template) => {
      await keyv.set(TEMPLATE_KEY, template);
    },
    clear: async () => {
      await keyv.delete(TEMPLATE_KEY);
    },
  };
}

/**
 * The template kept in memory once read (every new editor, `GET /`, reads it) while `mayKeep()`; `forget`
 * drops it when another instance changed it. `null` means "read, and there is none".
 */
export function createTemplateStore(
  record: TemplateRecord,
  mayKeep: () => boolean = () => true,
): TemplateStore & { forget(): void } {
  let cached: Template | null | undefined;
  let forgotten = 0; // a read that overlapped a forget() may hold what it replaced: not kept
  return {
    async template() {
      if (cached !== undefined) return cached ?? undefined;
      const before = forgotten;
      const found = (await record.get()) ?? null;
      if (before === forgotten && mayKeep()) cached = found;
      return found ?? undefined;
    },
    async setTemplate(input) {
      const template: Template = { ...input, updated: new Date().toISOString() };
      cached = undefined; // a failed write must not leave the cache ahead of the store
      await record.set(template);
      if (mayKeep()) cached = template;
      return template;
    },
    async clearTemplate() {
      cached = undefined;
      await record.clear();
      if (mayKeep()) cached = null;
    },
    forget() {
      forgotten++;
      cached = undefined;
    },
  };
}
