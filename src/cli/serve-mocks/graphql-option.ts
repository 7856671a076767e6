import { buildSchema, SchemaError } from '../../mocks/graphql/schema.js';
import { RecordTextError } from '../../mocks/record/text.js';
import { checkName } from '../../mocks/record/validate.js';
import { createFileSource, type FileSource } from '../../mocks/sources/file.js';
import type { SourceLoader, SourceParser } from '../../mocks/sources/loader.js';
import type { Logger } from '../../server/logger.js';
import { CliError, EXIT } from '../common/errors.js';
import { requirePath } from '../common/flag-path.js';

/**
 * serve-mocks --graphql: one endpoint of `"kind": "graphql"` answering the schema file at
 * `path` (--graphql-path), named for its path, followed as the file changes. A schema that does
 * not build is reported with its line and column like a bad --dir file; the endpoint keeps its last good version.
 */
export function openGraphqlSource(file: string | undefined, path: string, loader: SourceLoader, logger: Logger): FileSource | undefined {
  if (file === undefined) return undefined;
  requirePath('--graphql', file, 'file');
  const name = path.replace(/^\/+|\/+$/g, '');
  try {
    checkName(name, true);
  } catch (err) {
    // checkName's only throw: the name's refusal, a 400 for the API, a usage error here.
    throw new CliError(`--graphql-path ${path}: ${(err as Error).message.replace(/^name/, 'the path')}`, EXIT.usage);
  }
  const parse: SourceParser = (_file, text) => {
    try {
      // Built here first for the problem's place in the schema file; the record's check builds it again.
      buildSchema(text);
    } catch (err) {
      if (!(err instanceof SchemaError)) throw err;
      const place = err.line === undefined ? undefined : { line: err.line, column: err.column! };
      throw new RecordTextError(`not a valid GraphQL schema: ${err.reason}`, place);
    }
    return { records: [{ name, kind: 'graphql', path: name, schema: text }] };
  };
  return createFileSource({ file, loader, parse, print: logger.info, warn: logger.error });
}
