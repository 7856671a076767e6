import { changeNotice } from '../store/postgres-changes.js';
import type { MockChange } from './mock-engine.js';

/** The channel every instance on a database notifies its endpoint and collection writes on. */
export const MOCK_CHANNEL = 'snippetkit_mocks';

/** A write's notice: the change, and which engine instance wrote it (`from`). */
export const mockNotice = (from: string, change: MockChange): string => changeNotice(from, change);

/** The change a mock notice's fields name. */
export function readMockChange({ endpoint, collection }: Record<string, unknown>): MockChange | undefined {
  if (typeof endpoint === 'string') return { endpoint };
  if (typeof collection === 'string') return { collection };
  return undefined;
}
