/**
 * The route table of /endpoint/*: a trie over path segments (docs/mock-api.md, "Serving"). Each
 * node has static children by segment, one parameter child (names live on the route, so
 * `users/:id` and `users/:uid` are one shape) and one wildcard leaf (the rest of the path, maybe
 * empty). Lookup prefers static over parameter over wildcard at every segment and backtracks, so
 * the most specific route that answers the method wins; whole static paths also sit in a Map, so a
 * plain `/endpoint/<name>` is one Map hit.
 */

/** A route's methods; null answers every method. A route that answers GET answers HEAD too. */
type Methods = ReadonlySet<string> | null;

type Route<T> = {
  key: string;
  value: T;
  methods: Methods;
  /** Parameter names in path order, for this shape. */
  names: string[];
  /** Lower first: the older endpoint wins a tie. */
  order: number;
};

type Node<T> = {
  statics: Map<string, Node<T>>;
  param?: Node<T>;
  /** Routes ending in `*` at this node. */
  wildcard: Route<T>[];
  /** Routes ending at this node. */
  routes: Route<T>[];
};

/** A pattern's segments, one shape per way its optional segments can be left out. */
type Shape = { segments: string[]; names: string[] };

export type RouteMatch<T> = { value: T; params: Record<string, string> };
/** A route answers; or routes match the path but not the method (`allow` for a 405); or none (404). */
export type Lookup<T> = RouteMatch<T> | { allow: string[] } | undefined;

/**
 * Most route nodes one lookup visits (about a millisecond). Each node is visited at most once, so
 * real tables stay far below it; a table built to be slow (thousands of endpoints mixing static and
 * parameter segments along one path) would otherwise make one request cost the whole table. Past
 * it the lookup gives up: no route (404).
 */
export const MAX_VISITS = 10_000;

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export class RouteTable<T> {
  private readonly root: Node<T> = newNode();
  /** Whole static paths (no parameter, no wildcard) to their routes. */
  private readonly wholePaths = new Map<string, Route<T>[]>();
  private readonly byKey = new Map<string, { shapes: Shape[]; order: number }>();
  private nextOrder = 0;

  /** Adds or replaces `key`'s routes; a replaced key keeps its age. */
  set(key: string, pattern: string, methods: readonly string[] | undefined, value: T): void {
    const order = this.byKey.get(key)?.order ?? this.nextOrder++;
    this.remove(key);
    const shapes = shapesOf(pattern);
    const methodSet = effectiveMethods(methods);
    for (const shape of shapes) {
      const route: Route<T> = { key, value, methods: methodSet, names: shape.names, order };
      const { list, whole } = this.slot(shape.segments, true)!;
      insertByOrder(list, route);
      if (whole !== undefined) insertByOrder(getOrSet(this.wholePaths, whole, () => []), route);
    }
    this.byKey.set(key, { shapes, order });
  }

  remove(key: string): void {
    const entry = this.byKey.get(key);
    if (!entry) return;
    for (const shape of entry.shapes) {
      const { list, whole } = this.slot(shape.segments, false)!;
      removeKey(list, key);
      if (whole !== undefined) {
        const routes = this.wholePaths.get(whole)!;
        removeKey(routes, key);
        if (routes.length === 0) this.wholePaths.delete(whole);
      }
    }
    // Empty nodes stay: they cost a little memory and no lookup time, and pruning would need parent links.
    this.byKey.delete(key);
  }

  /**
   * The key of another route with one of `pattern`'s shapes and a method in common, if any;
   * keys for which `ignore` is true do not count (routes about to be replaced).
   */
  conflict(
    key: string,
    pattern: string,
    methods: readonly string[] | undefined,
    ignore?: (key: string) => boolean,
  ): string | undefined {
    const mine = effectiveMethods(methods);
    for (const shape of shapesOf(pattern)) {
      for (const route of this.slot(shape.segments, false)?.list ?? []) {
        if (route.key !== key && overlap(mine, route.methods) && !ignore?.(route.key)) return route.key;
      }
    }
    return undefined;
  }

  /** Finds the route for `method` and `path` (as sent after /endpoint/, query removed, not decoded). */
  find(method: string, path: string): Lookup<T> {
    if (path.endsWith('/')) path = path.slice(0, -1);
    // The plain case: one Map hit, nothing split or decoded.
    if (!path.includes('%')) {
      const route = this.wholePaths.get(path)?.find((r) => answers(r.methods, method));
      if (route) return { value: route.value, params: NO_PARAMS };
    }
    const segments = path === '' ? [] : path.split('/');
    if (path.includes('%')) {
      try {
        for (let i = 0; i < segments.length; i++) segments[i] = decodeURIComponent(segments[i]!);
      } catch {
        // A broken escape names no route.
        return undefined;
      }
    }
    const allow = new Set<string>();
    let matched = false;
    const values: string[] = [];
    let visits = 0;
    const pick = (routes: Route<T>[]): Route<T> | undefined => {
      if (routes.length === 0) return undefined;
      matched = true;
      const route = routes.find((r) => answers(r.methods, method));
      if (!route) for (const r of routes) for (const m of r.methods!) allow.add(m);
      return route;
    };
    const walk = (node: Node<T>, i: number): RouteMatch<T> | undefined => {
      if (++visits > MAX_VISITS) return undefined;
      if (i === segments.length) {
        const route = pick(node.routes);
        if (route) return { value: route.value, params: paramsOf(route.names, values) };
      } else {
        const child = node.statics.get(segments[i]!);
        const found = child && walk(child, i + 1);
        if (found) return found;
        if (node.param && segments[i] !== '') {
          values.push(segments[i]!);
          const inParam = walk(node.param, i + 1);
          if (inParam) return inParam;
          values.pop();
        }
      }
      // Given up below: no route, rather than whichever wildcard is nearest.
      if (visits > MAX_VISITS) return undefined;
      const route = pick(node.wildcard);
      if (!route) return undefined;
      const params = paramsOf(route.names, values);
      params['*'] = segments.slice(i).join('/');
      return { value: route.value, params };
    };
    const found = walk(this.root, 0);
    if (found) return found;
    if (visits > MAX_VISITS) return undefined;
    return matched ? { allow: [...allow].sort() } : undefined;
  }

  /** The route list a shape ends in, and its whole static path when it has one. */
  private slot(segments: string[], create: boolean): { list: Route<T>[]; whole?: string } | undefined {
    let node = this.root;
    let isStatic = true;
    for (const segment of segments) {
      if (segment === '*') return { list: node.wildcard };
      let next: Node<T> | undefined;
      if (segment === ':') {
        isStatic = false;
        next = node.param ?? (create ? (node.param = newNode()) : undefined);
      } else {
        next = node.statics.get(segment) ?? (create ? getOrSet(node.statics, segment, () => newNode<T>()) : undefined);
      }
      if (!next) return undefined;
      node = next;
    }
    return { list: node.routes, ...(isStatic && { whole: segments.join('/') }) };
  }
}

/**
 * `users/:id?` is two shapes, `users` and `users/:`. Only trailing segments may be optional (the
 * record's validation says so; checked here too, as a wrong pattern would multiply shapes).
 */
export function shapesOf(pattern: string): Shape[] {
  const parts = pattern === '' ? [] : pattern.split('/');
  const segments: string[] = [];
  const names: string[] = [];
  const shapes: Shape[] = [];
  for (const [i, part] of parts.entries()) {
    if (part === '*' && i !== parts.length - 1) throw new Error(`'*' must be the last segment of '${pattern}'`);
    if (part.startsWith(':') && part.endsWith('?')) {
      shapes.push({ segments: [...segments], names: [...names] });
      names.push(part.slice(1, -1));
      segments.push(':');
    } else {
      if (shapes.length > 0) throw new Error(`only trailing segments of '${pattern}' may be optional`);
      if (part.startsWith(':')) names.push(part.slice(1));
      segments.push(part.startsWith(':') ? ':' : part);
    }
  }
  shapes.push({ segments, names });
  return shapes;
}

function effectiveMethods(methods: readonly string[] | undefined): Methods {
  if (!methods) return null;
  const set = new Set(methods);
  if (set.has('GET')) set.add('HEAD');
  return set;
}

function answers(methods: Methods, method: string): boolean {
  return methods === null || methods.has(method);
}

function overlap(a: Methods, b: Methods): boolean {
  if (a === null || b === null) return true;
  for (const method of a) if (b.has(method)) return true;
  return false;
}

function paramsOf(names: string[], values: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  // defineProperty: a parameter named __proto__ stays a parameter.
  names.forEach((name, i) => {
    Object.defineProperty(params, name, { value: values[i], enumerable: true, writable: true });
  });
  return params;
}

function newNode<T>(): Node<T> {
  return { statics: new Map(), wildcard: [], routes: [] };
}

function insertByOrder<T>(list: Route<T>[], route: Route<T>): void {
  const at = list.findIndex((r) => r.order > route.order);
  if (at === -1) list.push(route);
  else list.splice(at, 0, route);
}

function removeKey<T>(list: Route<T>[], key: string): void {
  const at = list.findIndex((r) => r.key === key);
  if (at !== -1) list.splice(at, 1);
}

function getOrSet<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}
