import { changeNotice } from '../store/postgres-changes.js';
import type { Change } from './bin-engine.js';

/** The channel every instance on a database notifies its bin writes on. */
export const BIN_CHANNEL = 'snippetkit_bins';

/** A write's notice: the change, and which engine instance wrote it (`from`). */
export const binNotice = (from: string, change: Change): string => changeNotice(from, change);

/** The change a bin notice's fields name. */
export function readBinChange({ bin, rev, template }: Record<string, unknown>): Change | undefined {
  if (template === true) return { template: true };
  if (typeof bin !== 'string') return undefined;
  return typeof rev === 'number' ? { bin, rev } : { bin };
}
