import type { Change } from './engine.js';

/** The change a bin notice's fields name (changeNotice's flat format, on either shared store). */
export function readBinChange({ bin, rev, template }: Record<string, unknown>): Change | undefined {
  if (template === true) return { template: true };
  if (typeof bin !== 'string') return undefined;
  return typeof rev === 'number' ? { bin, rev } : { bin };
}
