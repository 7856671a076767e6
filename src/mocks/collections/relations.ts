import { HttpError } from '../../http/errors.js';
import type { Item } from './query.js';
import type { State } from './state.js';

/** The collections of one database by name (a `--db` file's keys, or the API's collections), as read now. */
export type Db = ReadonlyMap<string, State>;

// json-server 0.17 links collections by name: `comments` items name their post in `postId`.
const FOREIGN_KEY = 'Id';

// Words English does not make by rule, singular → plural (pluralize's most common irregulars).
const IRREGULAR = new Map([
  ['person', 'people'], ['child', 'children'], ['man', 'men'], ['woman', 'women'], ['mouse', 'mice'],
  ['goose', 'geese'], ['tooth', 'teeth'], ['foot', 'feet'], ['ox', 'oxen'], ['quiz', 'quizzes'],
]);
const IRREGULAR_PLURAL = new Map([...IRREGULAR].map(([one, many]) => [many, one]));
// The same in both: a `series` item names its series in `seriesId`.
const UNCOUNTABLE = new Set(['series', 'species', 'news', 'sheep', 'fish', 'deer', 'information', 'equipment', 'media']);
// Singulars ending in -ie, whose plural -ies is not a -y word's (`movies` is not `movy`'s).
const IE = /(?:^|[^a-z])(movie|cookie|pie|tie|lie|zombie|selfie|rookie|hippie|calorie|genie|goalie|newbie|smoothie|hoodie)s$/i;
// Singulars ending in -se or -ze, whose plural -ses is not an -s word's (`houses` is not `hous`'s).
const SE = /(ouse|ause|ourse|orse|ase|ense|onse|ise|ose|ulse|apse|ipse|uise|eze|aze|ize|oze|uze)s$/i;

/**
 * The singular of a collection's name (`posts` → `post`, `categories` → `category`, `people` →
 * `person`). json-server uses the pluralize package; these rules give its answer for the regular
 * English plurals and the common irregular words a database is named with, without a dependency.
 */
export function singular(name: string): string {
  const lower = name.toLowerCase();
  if (UNCOUNTABLE.has(lower)) return name;
  const irregular = IRREGULAR_PLURAL.get(lower);
  if (irregular) return irregular;
  // The last word decides: `userMovies`, `user_movies`.
  if (IE.test(name.replace(/([a-z])([A-Z])/g, '$1_$2')) || SE.test(name)) return name.slice(0, -1);
  if (/[^aeiou]ies$/i.test(name)) return `${name.slice(0, -3)}y`;
  if (/(ss|x|z|ch|sh|us)es$/i.test(name)) return name.slice(0, -2);
  if (/[^s]s$/i.test(name)) return name.slice(0, -1);
  return name;
}

/** The plural of a singular name (`post` → `posts`, `category` → `categories`), by the same rules. */
export function plural(name: string): string {
  const lower = name.toLowerCase();
  if (UNCOUNTABLE.has(lower)) return name;
  const irregular = IRREGULAR.get(lower);
  if (irregular) return irregular;
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}

/** The key an item of another collection names an item of `collection` by: `posts` → `postId`. */
export function foreignKey(collection: string): string {
  return `${singular(collection)}${FOREIGN_KEY}`;
}

/** Most bytes `_expand` may add to one answer: an item named by every other would otherwise be copied into each. */
export const MAX_EXPANDED_BYTES = 8 * 1024 * 1024;

/**
 * What adds `_embed` (lists of other collections naming the item: `comments` whose `postId` is its
 * id) and `_expand` (the item it names: `post` from its `postId`) to items of collection `name`, as
 * json-server 0.17 adds them; a name that is not a list collection of `db` adds nothing. Each other
 * collection is indexed once, so an answer costs one pass over each. Throws a 400 when what
 * `_expand` copies would pass MAX_EXPANDED_BYTES.
 */
export function relate(name: string, embeds: string[], expands: string[], db: Db): (item: Item) => Item {
  const key = foreignKey(name);
  // json-server embeds by lodash's filter({ postId: id }): equal value and type.
  const embedded = embeds.flatMap((other) => {
    const state = db.get(other);
    if (!Array.isArray(state)) return [];
    const byOwner = new Map<unknown, Item[]>();
    for (const candidate of state) {
      if (!Object.hasOwn(candidate, key)) continue;
      const list = byOwner.get(candidate[key]) ?? [];
      list.push(candidate);
      byOwner.set(candidate[key], list);
    }
    return [{ other, byOwner }];
  });
  // json-server expands by lodash-id's getById: ids equal as text.
  const expanded = expands.flatMap((inner) => {
    const state = db.get(plural(inner));
    if (!Array.isArray(state)) return [];
    const byId = new Map<string, { item: Item; bytes: number }>();
    for (const candidate of state) {
      const id = candidate.id;
      if (id !== undefined && id !== null && !byId.has(String(id))) byId.set(String(id), { item: candidate, bytes: -1 });
    }
    return [{ inner, byId }];
  });
  let bytes = 0;
  return (item) => {
    const out: Item = { ...item };
    for (const { other, byOwner } of embedded) out[other] = item.id === undefined ? [] : (byOwner.get(item.id) ?? []);
    for (const { inner, byId } of expanded) {
      const named = item[`${inner}${FOREIGN_KEY}`];
      const found = named === undefined || named === null ? undefined : byId.get(String(named));
      if (!found) continue;
      if (found.bytes < 0) found.bytes = JSON.stringify(found.item).length;
      bytes += found.bytes;
      if (bytes > MAX_EXPANDED_BYTES) {
        throw new HttpError(400, `_expand would add more than ${MAX_EXPANDED_BYTES} bytes to the answer: ask for a page (_page)`, '_expand');
      }
      out[inner] = found.item;
    }
    return out;
  };
}

/**
 * The ids to remove from each collection after a delete, as json-server 0.17's DELETE does: an item
 * whose `<name>Id` names a list collection of `db` that has no item with that id (a `comments` item
 * whose post is gone). One pass, as json-server makes it; items without an id cannot be removed.
 */
export function orphans(db: Db): Map<string, Set<string>> {
  const removable = new Map<string, Set<string>>();
  // Each named collection's ids, as text, made once: a lookup per key rather than a pass.
  const idSets = new Map<string, Set<string> | undefined>();
  const idsOf = (name: string): Set<string> | undefined => {
    if (!idSets.has(name)) {
      const target = db.get(name);
      const ids = Array.isArray(target)
        ? new Set(target.flatMap((item) => (item.id === undefined || item.id === null ? [] : [String(item.id)])))
        : undefined;
      idSets.set(name, ids);
    }
    return idSets.get(name);
  };
  for (const [name, state] of db) {
    if (!Array.isArray(state)) continue;
    for (const item of state) {
      if (item.id === undefined || item.id === null) continue;
      for (const [key, value] of Object.entries(item)) {
        if (!key.endsWith(FOREIGN_KEY) || key === FOREIGN_KEY) continue;
        const ids = idsOf(plural(key.slice(0, -FOREIGN_KEY.length)));
        // Ids compare as text (as sameId does); a null reference names nothing, so it is no orphan
        // (json-server 0.17 fails on it).
        if (!ids || value === undefined || value === null || ids.has(String(value))) continue;
        const gone = removable.get(name) ?? new Set<string>();
        gone.add(String(item.id));
        removable.set(name, gone);
      }
    }
  }
  return removable;
}
