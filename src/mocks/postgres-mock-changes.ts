import { changeNotice, openPostgresChanges } from '../store/postgres-changes.js';
import type { ChangeFeed } from '../store/change-feed.js';
import type { MockChange } from './mock-engine.js';

/** The channel every instance on a database notifies its endpoint and collection writes on. */
export const MOCK_CHANNEL = 'snippetkit_mocks';

/** A write's notice: the change, and which engine instance wrote it (`from`). */
export const mockNotice = (from: string, change: MockChange): string => changeNotice(from, change);

function readMockChange({ endpoint, collection }: Record<string, unknown>): MockChange | undefined {
  if (typeof endpoint === 'string') return { endpoint };
  if (typeof collection === 'string') return { collection };
  return undefined;
}

/** Other instances' endpoint and collection writes (postgres-changes.ts); resolves once it listens. */
export const openMockChanges = (url: string, self: string): Promise<ChangeFeed<MockChange> & { close(): Promise<void> }> =>
  openPostgresChanges(url, MOCK_CHANNEL, self, readMockChange);
