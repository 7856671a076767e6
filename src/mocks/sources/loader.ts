import { HttpError } from '../../http/errors.js';
import { RecordTextError, type Place } from '../record/text.js';
import type { MockInput } from '../record/record.js';
import { SourceRecordError, type SourceChange } from '../store/source-sync.js';
import type { MockStore } from '../store/store.js';
import { parseMockInput } from '../record/validate.js';

/** A source's records, and where in its text each field is written (for errors) when that can be told. */
export type ParsedSource = {
  records: unknown[];
  /**
   * Each record stands alone (a json-server database's keys): one that is refused is reported and
   * left out, the rest are served. Otherwise one refused record keeps the whole source as it was.
   */
  partial?: boolean;
  /** Parts left out while the rest is served (an OpenAPI operation that cannot be an endpoint), one line each. */
  skipped?: string[];
  placeOf?(index: number, field: string | undefined): Place | undefined;
};

/** Turns a source file's text into records; a RecordTextError says where the text is broken. */
export type SourceParser = (file: string, text: string) => ParsedSource | Promise<ParsedSource>;

/** Why a source's last change was not applied; its endpoints keep their last good version. */
export type SourceProblem = {
  source: string;
  /** The file as the user named it (the folder given on the command line joined with its path inside). */
  file: string;
  message: string;
  line?: number;
  column?: number;
  field?: string;
  /** The refused record's index in a file holding a list. */
  index?: number;
};

/** A change applied; with `problems` when a partial source left records out (each one reported). */
export type Applied = SourceChange & { problems?: SourceProblem[] };

export type SourceLoader = {
  /**
   * Parses, validates and syncs one source: `text` undefined means the file is gone. A problem
   * is recorded (and returned) instead of a change; nothing of the source changes then.
   */
  apply(
    store: MockStore,
    file: string,
    text: string | undefined,
    parse: SourceParser,
  ): Promise<Applied | SourceProblem>;
  /** Drops a problem without applying anything (a file that failed and is now gone or skipped). */
  forget(file: string): void;
  /** Current problems, by file name: a refused change's, and the parts an applied one left out. */
  problems(): SourceProblem[];
};

/** The source id of a file: `file:` and the path as the user named it. */
export function fileSource(file: string): string {
  return `file:${file}`;
}

/** One loader can serve every watched source (a folder, an OpenAPI file) and the API lists all their problems. */
export function createSourceLoader(options: { maxDelay: number }): SourceLoader {
  const validate = { maxDelay: options.maxDelay, nestedNames: true };
  const problems = new Map<string, SourceProblem[]>();

  const fail = (problem: SourceProblem) => {
    problems.set(problem.file, [problem]);
    return problem;
  };
  /** A refused record as its problem: the place in the file of the field named, when the parser can tell. */
  const problemOf = (file: string, parsed: ParsedSource, err: SourceRecordError): SourceProblem => {
    const { message, field, index } = err;
    const place = parsed.placeOf?.(index, field);
    const many = parsed.records.length > 1 ? { index } : {};
    return { source: fileSource(file), file, message, ...place, ...(field && { field }), ...many };
  };

  return {
    async apply(store, file, text, parse) {
      const source = fileSource(file);
      let parsed: ParsedSource = { records: [] };
      const inputs: MockInput[] = [];
      const left: SourceProblem[] = [];
      try {
        if (text !== undefined) parsed = await parse(file, text);
        parsed.records.forEach((record, index) => {
          try {
            inputs.push(parseMockInput(record, validate));
          } catch (err) {
            if (!(err instanceof HttpError)) throw err;
            const refused = new SourceRecordError(400, err.message, err.field ?? '', index);
            if (!parsed.partial) throw refused;
            left.push(problemOf(file, parsed, refused));
          }
        });
        const change = await store.syncSource(source, inputs);
        // What the source left out: records refused one by one, and parts its parser skipped.
        const skipped = (parsed.skipped ?? []).map((message): SourceProblem => ({ source, file, message }));
        const out = [...left, ...skipped];
        if (out.length === 0) problems.delete(file);
        else problems.set(file, out);
        return left.length === 0 ? change : { ...change, problems: left };
      } catch (err) {
        if (err instanceof RecordTextError) return fail({ source, file, message: err.message, ...err.place });
        if (!(err instanceof SourceRecordError)) throw err;
        return fail(problemOf(file, parsed, err));
      }
    },
    forget: (file) => problems.delete(file),
    problems: () => [...problems.values()].flat().sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
  };
}

/** A problem as one line: `mocks/a.yaml:3:7: message (field statusCode)`. */
export function describeProblem(problem: SourceProblem): string {
  const at = problem.line ? `:${problem.line}:${problem.column}` : '';
  const field = problem.field ? ` (field ${problem.field})` : '';
  return `${problem.file}${at}: ${problem.message}${field}`;
}

/** The change as the lines the server prints: `+ name (file)`, `~ …`, `- …`. */
export function describeChange(change: SourceChange, file: string): string[] {
  const lines = (mark: string, names: string[]) => names.map((name) => `${mark} ${name} (${file})`);
  return [...lines('+', change.added), ...lines('~', change.changed), ...lines('-', change.removed)];
}
