import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isCompiled, type CompileResult, type Processor } from '../../shared/processors.js';
import { createCompilePool, isTransient, type PoolOptions } from './pool.js';

export type CompilerOptions = PoolOptions & {
  /** Largest source compiled, in characters; larger is an error, not a compile. */
  maxSource: number;
  /** Compiled output kept in memory, in characters. */
  cacheSize: number;
};

export const COMPILER_DEFAULTS: CompilerOptions = {
  size: 2,
  // JS Bin's limit too.
  timeoutMs: 1000,
  maxQueue: 256,
  maxQueuePerClient: 16,
  maxMemoryMb: 512,
  maxSource: 256 * 1024,
  cacheSize: 32 * 1024 * 1024,
};

export type CompilerStats = { compiles: number; hits: number };

export type Compiler = {
  /**
   * `source` through `processor`; a panel's own language comes back as it is. Never rejects.
   * `client` (the requester's address) is who waits: see CompilePool.run.
   */
  compile(processor: Processor, source: string, client?: string): Promise<CompileResult>;
  stats(): CompilerStats;
  close(): void;
};

/**
 * Compiles in child processes (pool.ts) and caches by content: a popular bin renders without
 * recompiling, and identical sources share one compile while it runs.
 */
export function createCompiler(options: Partial<CompilerOptions> = {}): Compiler {
  const settings = { ...COMPILER_DEFAULTS, ...options };
  const pool = createCompilePool(settings);
  const counts: CompilerStats = { compiles: 0, hits: 0 };
  const cache = new LRUCache<string, CompileResult>({
    maxSize: settings.cacheSize,
    sizeCalculation: (result) => (result.ok ? result.code.length : result.error.message.length) + 64,
  });
  const running = new Map<string, Promise<CompileResult>>();

  return {
    async compile(processor, source, client) {
      if (!isCompiled(processor)) return { ok: true, code: source };
      if (source.length > settings.maxSource) {
        const message = `the source is over ${settings.maxSource / 1024} KB, too large to compile`;
        return { ok: false, error: { message } };
      }
      const key = createHash('sha256').update(processor).update('\0').update(source).digest('base64url');
      const cached = cache.get(key) ?? (await running.get(key));
      if (cached) {
        counts.hits++;
        return cached;
      }
      counts.compiles++;
      const pending = pool.run(processor, source, client);
      running.set(key, pending);
      try {
        const result = await pending;
        // Only what the source alone decides: a timeout, a crash or a full queue may go otherwise next time.
        if (!isTransient(result)) cache.set(key, result);
        return result;
      } finally {
        running.delete(key);
      }
    },
    stats: () => ({ ...counts }),
    close: () => pool.close(),
  };
}
