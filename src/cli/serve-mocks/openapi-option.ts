import { createFileSource, type FileSource } from '../../mocks/sources/file.js';
import { RecordTextError } from '../../mocks/record/text.js';
import type { SourceLoader, SourceParser } from '../../mocks/sources/loader.js';
import type { Logger } from '../../server/logger.js';
import { requirePath } from '../common/flag-path.js';
import { readFileSync } from 'node:fs';
import { CliError, EXIT } from '../common/errors.js';

/**
 * serve-mocks --openapi: an endpoint per operation of the document, followed as the file changes. The
 * file must be there at start (a typo is a start-up error); a document that does not validate is
 * reported like a bad --dir file, and the endpoints keep their last good version.
 */
export function openOpenapiSource(file: string | undefined, loader: SourceLoader, logger: Logger): FileSource | undefined {
  if (file === undefined) return undefined;
  requirePath('--openapi', file, 'file');
  return createFileSource({ file, loader, parse: openapiParser(logger), print: logger.info, warn: logger.error });
}

/**
 * `--base-path` as a path: the one given, or with the flag alone the --openapi document's own
 * (its first server's path, Swagger's basePath), checked as a given one is.
 */
export async function resolveBasePath(given: string | true | undefined, file: string | undefined): Promise<string | undefined> {
  if (given !== true) return given;
  const { documentBasePath } = await import('../../mocks/sources/openapi/base-path.js');
  const { checkBasePath } = await import('../../mocks/config/base-path.js');
  let path: string;
  try {
    path = documentBasePath(readFileSync(file!, 'utf8'));
  } catch (err) {
    throw new CliError(`--base-path: ${file} gives no base path: ${(err as Error).message}`, EXIT.usage);
  }
  const checked = checkBasePath(path);
  if ('problem' in checked) throw new CliError(`--base-path: the base path of ${file} ${checked.problem.replace(/^'[^']*' /, '')}`, EXIT.usage);
  return checked.path;
}

function openapiParser(logger: Logger): SourceParser {
  return async (file, text) => {
    // The parser, its validator and the sampler load with the first document, not at every start.
    const { openapiRecords } = await import('../../mocks/sources/openapi/to-records.js');
    const { OpenapiError } = await import('../../mocks/sources/openapi/load-document.js');
    try {
      const { records, skipped } = await openapiRecords(file, text);
      for (const line of skipped) logger.info(`  ${file}: skipped ${line}`);
      // Listed with the file's problems too (GET /api/sources, the page) while the rest is served.
      return { records, skipped: skipped.map((line) => `skipped ${line}`) };
    } catch (err) {
      if (!(err instanceof OpenapiError)) throw err;
      // The loader puts the file name in front of its message: said once is enough.
      const message = err.message.startsWith(file) ? err.message.slice(file.length).replace(/^:?\s*/, '') : err.message;
      throw new RecordTextError(message, undefined);
    }
  };
}
