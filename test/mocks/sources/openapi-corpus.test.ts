import { expect } from 'chai';
import { DOCUMENTS, documentPath, knownGaps } from './corpus/documents.js';
import { corpusOperations } from './corpus/response-schemas.js';
import { serveDocument } from './corpus/serve-document.js';

// The bounds (issue 28): each document loads within these, the largest included. The time is
// held on the CPU the server spent until it listened, which a machine busy with other groups does not
// inflate (Kubernetes' 6.7 s of CPU took 27 s on the clock at a load of 10 on 2 cores); the clock
// only has to show the load ends.
const LOAD_CPU_MS = 10_000;
const LOAD_CLOCK_MS = 90_000;
const PEAK_MB = 500;
// Share of a document's operations that must answer their documented success with a valid body.
const SHARE = 0.98;

type Row = { operations: number; valid: number; loadMs: number; loadCpuMs: number; peakMb: number };
const rows = new Map<string, Row>();

describe('public OpenAPI descriptions served by serve-mocks --openapi (test/fixtures/openapi-corpus)', function () {
  this.timeout(180_000);
  let gaps: ReturnType<typeof knownGaps>;
  before(() => (gaps = knownGaps()));

  after(() => {
    // The figures the issue asks for, printed with the group's output.
    const lines = [...rows].map(([file, r]) => {
      const share = r.operations === 0 ? '-' : `${((100 * r.valid) / r.operations).toFixed(1)}%`;
      return `  ${file.padEnd(56)} ${String(r.operations).padStart(5)} ops ${share.padStart(7)} valid ${String(Math.round(r.loadMs)).padStart(6)} ms (${Math.round(r.loadCpuMs)} ms CPU) ${Math.round(r.peakMb)} MB`;
    });
    console.log(`\n  corpus: operations, share valid, load (start to listening), peak RSS\n${lines.join('\n')}`);
  });

  for (const document of DOCUMENTS) {
    it(`serves every operation of ${document.file}, ${SHARE * 100}% or more with a valid body, each miss a known gap`, async () => {
      const path = documentPath(document);
      // The server loads while this process reads the document its own way.
      const [served, operations] = await Promise.all([serveDocument(path), corpusOperations(path)]);
      try {
        const misses = await served.ask(operations);
        const valid = operations.length - misses.size;
        const { loadMs, loadCpuMs, peakMb } = served;
        rows.set(document.file, { operations: operations.length, valid, loadMs, loadCpuMs, peakMb });

        expect(served.loadCpuMs, 'CPU time to load').to.be.below(LOAD_CPU_MS);
        expect(served.loadMs, 'time to load').to.be.below(LOAD_CLOCK_MS);
        expect(served.peakMb, 'peak RSS').to.be.below(PEAK_MB);
        const known = gaps.get(document.file) ?? new Map<string, string>();
        const unlisted = [...misses].filter(([label]) => !known.has(label)).map(([label, why]) => `${label}: ${why}`);
        expect(unlisted, 'misses not in the known gaps table of docs/mock-api.md').to.deep.equal([]);
        const stale = [...known.keys()].filter((label) => !misses.has(label));
        expect(stale, 'known gaps that now answer well: remove their rows').to.deep.equal([]);
        expect(valid, `valid of ${operations.length}`).to.be.at.least(Math.ceil(operations.length * SHARE));
      } finally {
        await served.close();
      }
    });
  }
});
