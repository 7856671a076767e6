import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A `$ref` the document may not hold (one over the network), named with its place. */
export class RefRefused extends Error {
  override name = 'RefRefused';
}

/**
 * Refuses every `$ref` with a URL scheme (http:, https:, ...) and makes each relative one absolute
 * from `file`'s folder: the parser would otherwise read it from the process's working folder. With
 * `local`, a `#/...` one becomes `file#/...` too: the part of `file` it is in is moved into another
 * document (an operation given as a `$ref`), where `#` would mean that document.
 */
export function anchorRefs(file: string, node: unknown, options: { at?: string; local?: boolean } = {}): void {
  const folder = dirname(resolve(file));
  const self = pathToFileURL(resolve(file)).href;
  const walk = (node: unknown, at: string): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`));
    const record = node as Record<string, unknown>;
    for (const [key, child] of Object.entries(record)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#')) {
        if (options.local) record[key] = self + child;
      } else if (key === '$ref' && typeof child === 'string') {
        if (/^[a-z][a-z0-9+.-]*:/i.test(child) && !/^[a-z]:[\\/]/i.test(child)) {
          throw new RefRefused(`${at}/$ref: '${child}' is refused: only $refs to files beside it are read`);
        }
        const [path = '', fragment] = child.split('#', 2);
        record[key] = pathToFileURL(resolve(folder, path)).href + (fragment === undefined ? '' : `#${fragment}`);
      } else walk(child, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    }
  };
  walk(node, options.at ?? '#');
}
