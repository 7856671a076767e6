import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerProcess } from '../../../helpers/cli.js';
import { tempDir } from '../../../helpers/temp.js';
import { judge, type CorpusOperation } from './response-schemas.js';

/** How one document fared: its load, its peak memory, and each operation that missed. */
export type DocumentRun = {
  operations: number;
  /** From the process's start to its listening, on the clock. */
  loadMs: number;
  /** CPU time (user and system) the server spent until it listened: what the load costs on a loaded machine too. */
  loadCpuMs: number;
  /** Peak resident memory of the server process (VmHWM), in MB. */
  peakMb: number;
  /** `GET /pets/{id}` -> what was wrong. */
  misses: Map<string, string>;
};

// Requests in flight at once: enough to keep the server busy, few enough for a loaded CI machine.
const CONCURRENCY = 16;
// Linux counts a process's CPU time in ticks of 1/100 s (getconf CLK_TCK).
const TICKS_PER_SECOND = 100;

/** A document served by `snippetkit serve-mocks --openapi FILE`: a real process, so the file gate, the loader and the peak RSS are the user's. */
export type ServedDocument = {
  loadMs: number;
  loadCpuMs: number;
  peakMb: number;
  /** Asks every operation over real HTTP; the misses. */
  ask(operations: CorpusOperation[]): Promise<Map<string, string>>;
  close(): Promise<void>;
};

export async function serveDocument(file: string): Promise<ServedDocument> {
  const temp = tempDir();
  try {
    const started = performance.now();
    const args = ['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite'), '--openapi', file];
    const server = await startServerProcess(args, {}, { dieWithTests: true });
    const loadMs = performance.now() - started;
    const { peakMb, cpuMs } = usageOf(server.child.pid!);
    return {
      loadMs,
      loadCpuMs: cpuMs,
      peakMb,
      async ask(operations) {
        const misses = new Map<string, string>();
        const queue = [...operations];
        const worker = async () => {
          for (let op = queue.shift(); op; op = queue.shift()) {
            const miss = await askOperation(`${server.url}/endpoint`, op);
            if (miss !== undefined) misses.set(op.label, miss);
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        return misses;
      },
      async close() {
        await server.stop();
        temp.cleanup();
      },
    };
  } catch (err) {
    temp.cleanup();
    throw err;
  }
}

/**
 * Undefined when the operation answers its status with a body its own schema or examples allow;
 * `base` is where operation paths start (`…/endpoint` here; a server's root for Prism, bench/prism.js),
 * `headers` what every request carries (credentials, for a server that checks them).
 */
export async function askOperation(base: string, op: CorpusOperation, headers: Record<string, string> = {}): Promise<string | undefined> {
  let res: Response;
  try {
    // A `?` or `#` in a path key is part of the path: sent percent-encoded (docs/mock-api.md).
    const path = encodeURI(op.url).replaceAll('?', '%3F').replaceAll('#', '%23');
    res = await fetch(`${base}${path}`, { method: op.method, headers });
  } catch (err) {
    return `no answer: ${(err as Error).message}`;
  }
  const text = await res.text();
  if (res.status !== op.status) return `status ${res.status}, not ${op.status}: ${text.slice(0, 200)}`;
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (op.method === 'HEAD' || !/json/.test(type) || op.media.size === 0) return undefined;
  const entry = op.media.get(type) ?? [...op.media].find(([key]) => /json|\*\/\*/.test(key))?.[1];
  if (!entry) return undefined;
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  const wrong = judge(entry, body);
  return wrong === undefined ? undefined : `${wrong}: ${text.slice(0, 200)}`;
}

/** The process's peak resident set (VmHWM) and the CPU time it has spent, from Linux's /proc. */
export function usageOf(pid: number): { peakMb: number; cpuMs: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  // Fields 14 and 15 of /proc/PID/stat, counted after the command name's closing parenthesis.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return {
    peakMb: Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024,
    cpuMs: (ticks * 1000) / TICKS_PER_SECOND,
  };
}
