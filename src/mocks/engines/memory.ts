import type { MockEngine, SavedCollection } from './engine.js';
import type { StoredMock } from '../record/record.js';

/**
 * The mocks kept by nothing but this process: for a test suite's server (the Node API's default),
 * which must start in milliseconds, write no file and leave nothing behind. The store keeps counters and
 * logs in memory already, so saving them here is a no-op; records and collections are copied in and
 * out as JSON text, as a real engine's would be, so no caller shares an object with the engine.
 */
export function openMemoryMocks(): MockEngine {
  const records = new Map<string, string>();
  const collections = new Map<string, SavedCollection>();
  const scenarios = new Map<string, string>();
  return {
    endpoints: {
      all: async () => [...records.values()].map((text) => JSON.parse(text) as StoredMock),
      get: async (name) => {
        const text = records.get(name);
        return text === undefined ? undefined : (JSON.parse(text) as StoredMock);
      },
      put: async (record) => void records.set(record.name, JSON.stringify(record)),
      delete: async (name) => records.delete(name),
    },
    collections: {
      load: async (name) => collections.get(name),
      save: async (name, { seed, value }, expected) => {
        if ((collections.get(name)?.version ?? 0) !== expected) return false;
        collections.set(name, { seed, value, version: expected + 1 });
        return true;
      },
      drop: async (name) => void collections.delete(name),
    },
    stats: {
      load: async () => new Map(),
      save: async () => {},
      clearLog: async () => {},
      forget: async () => {},
    },
    scenarios: {
      all: async () => new Map(scenarios),
      set: async (states) => states.forEach((state, name) => scenarios.set(name, state)),
      clear: async () => scenarios.clear(),
    },
    where: 'memory',
    close: async () => {
      records.clear();
      collections.clear();
      scenarios.clear();
    },
  };
}
