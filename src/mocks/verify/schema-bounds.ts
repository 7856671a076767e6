import { HttpError } from '../../http/errors.js';
import { isJsonObject, nestedDeeperThan } from '../../http/json-body.js';

/**
 * A `bodySchema` is anyone's (the mock API takes no key), and ajv trusts schemas as it trusts code
 * (ajv.js.org/security.html): compiling costs about 10 ms per KiB of schema, cannot be interrupted,
 * and overflows the stack on deep nesting. So a schema is at most 8 KiB of JSON and 16 levels deep,
 * its patterns run on RE2 (re2-pattern.ts), and its compiling and use count against the request's
 * CPU budget.
 */
export const MAX_SCHEMA_BYTES = 8 * 1024;
export const MAX_SCHEMA_DEPTH = 16;

/** The schema of a verification's `bodySchema`: a JSON object within the bounds; a 400 naming the bound otherwise. */
export function parseBodySchema(value: unknown): Record<string, unknown> {
  if (!isJsonObject(value)) throw refused('bodySchema must be a JSON Schema object');
  if (nestedDeeperThan(value, MAX_SCHEMA_DEPTH)) throw refused(`bodySchema is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  if (JSON.stringify(value).length > MAX_SCHEMA_BYTES) throw refused(`bodySchema is longer than ${MAX_SCHEMA_BYTES} characters of JSON`);
  return value;
}

function refused(message: string): HttpError {
  return new HttpError(400, message, 'bodySchema');
}
