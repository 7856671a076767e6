import { sameId } from './ops.js';
import type { Item } from './query.js';
import type { State } from './state.js';

/** The collections of one database by name (a `--db` file's keys, or the API's collections), as read now. */
export type Db = ReadonlyMap<string, State>;

// json-server 0.17 links collections by name: `comments` items name their post in `postId`.
const FOREIGN_KEY = 'Id';

/**
 * The singular of a collection's name (`posts` → `post`, `categories` → `category`). json-server uses
 * the pluralize package and its irregular words (`people` → `person`); these rules cover the regular
 * English plurals a database is named with, without a dependency.
 */
export function singular(name: string): string {
  if (/[^aeiou]ies$/i.test(name)) return `${name.slice(0, -3)}y`;
  if (/(s|x|z|ch|sh)es$/i.test(name)) return name.slice(0, -2);
  if (/[^s]s$/i.test(name)) return name.slice(0, -1);
  return name;
}

/** The plural of a singular name (`post` → `posts`, `category` → `categories`); pluralize's regular rules. */
export function plural(name: string): string {
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}

/** The key an item of another collection names an item of `collection` by: `posts` → `postId`. */
export function foreignKey(collection: string): string {
  return `${singular(collection)}${FOREIGN_KEY}`;
}

/**
 * `item` of collection `name` with `_embed` (lists of other collections naming it: `comments`
 * whose `postId` is its id) and `_expand` (the item it names: `post` from its `postId`) added, as
 * json-server 0.17 adds them; a name that is not a collection of `db` adds nothing.
 */
export function related(item: Item, name: string, embeds: string[], expands: string[], db: Db): Item {
  const out: Item = { ...item };
  const key = foreignKey(name);
  for (const other of embeds) {
    const state = db.get(other);
    if (!Array.isArray(state)) continue;
    out[other] = state.filter((candidate) => Object.hasOwn(candidate, key) && candidate[key] === item.id);
  }
  for (const inner of expands) {
    const state = db.get(plural(inner));
    if (!Array.isArray(state)) continue;
    const named = item[`${inner}${FOREIGN_KEY}`];
    const found = state.find((candidate) => sameId(candidate.id, named));
    if (found) out[inner] = found;
  }
  return out;
}

/**
 * The ids to remove from each collection after a delete, as json-server 0.17's DELETE does: an item
 * whose `<name>Id` names a list collection of `db` that has no item with that id (a `comments` item
 * whose post is gone). One pass, as json-server makes it; items without an id cannot be removed.
 */
export function orphans(db: Db): Map<string, Set<string>> {
  const removable = new Map<string, Set<string>>();
  for (const [name, state] of db) {
    if (!Array.isArray(state)) continue;
    for (const item of state) {
      if (item.id === undefined || item.id === null) continue;
      for (const [key, value] of Object.entries(item)) {
        if (!key.endsWith(FOREIGN_KEY) || key === FOREIGN_KEY) continue;
        const target = db.get(plural(key.slice(0, -FOREIGN_KEY.length)));
        if (!Array.isArray(target) || target.some((other) => sameId(other.id, value))) continue;
        const ids = removable.get(name) ?? new Set<string>();
        ids.add(String(item.id));
        removable.set(name, ids);
      }
    }
  }
  return removable;
}
