import type { MockChange } from './engine.js';

/** The change a mock notice's fields name (changeNotice's flat format, on either shared store). */
export function readMockChange({ endpoint, collection, scenarios }: Record<string, unknown>): MockChange | undefined {
  if (typeof endpoint === 'string') return { endpoint };
  if (typeof collection === 'string') return { collection };
  if (scenarios === true) return { scenarios };
  return undefined;
}
