import type { BinStore, SavedRevision } from './store.js';

export type { BinStore };

/**
 * `store` with `onSave` called after every append (the live hub's bump-revision), so the API's save
 * routes need not know about live sharing. Everything else is the store's own, by delegation.
 */
export function notifySaves(store: BinStore, onSave: (saved: SavedRevision) => void): BinStore {
  const append: BinStore['append'] = async (bin, build) => {
    const saved = await store.append(bin, build);
    onSave(saved);
    return saved;
  };
  return Object.assign(Object.create(store) as BinStore, { append });
}
