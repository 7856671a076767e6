import { HttpError } from '../../http/errors.js';
import type { MockInput } from './record.js';
import { bad } from './validate-fields.js';
import { ROOT_PATH } from './validate-route.js';

// Fields a collection has no use for: its routes, methods, statuses and bodies are json-server's.
const REFUSED = ['methods', 'statusCode', 'body', 'template', 'responses', 'pick', 'fault', 'faultRate', 'scenario', 'setState', 'callbacks'] as const;

/**
 * Makes `input` a collection (docs/mock-api.md, "Collections"): `data` is a list of objects, whose
 * ids (a number or a string) are unique where given (json-server 0.17 serves items without one:
 * only the routes by id need them), or one object; the path has no parameters (the item's
 * id is the segment after it). Throws a 400 naming the field.
 */
export function checkCollection(fields: Record<string, unknown>, input: MockInput): void {
  for (const field of REFUSED) {
    // A record read back from GET carries its statusCode 200: accepted so it can be PUT back.
    if (fields[field] !== undefined && !(field === 'statusCode' && fields[field] === 200)) {
      throw bad(field, `${field} cannot be set on a collection: its answers are json-server's`);
    }
  }
  if (input.path === ROOT_PATH) throw bad('path', 'a collection needs a path of its own: its items are at <path>/<id>');
  const segments = input.path?.split('/') ?? [];
  if (segments.some((segment) => segment.startsWith(':') || segment === '*')) {
    throw bad('path', 'the path of a collection has no parameters: items are at <path>/<id>');
  }
  const data = fields.data;
  if (Array.isArray(data)) {
    const seen = new Set<string>();
    for (const [i, item] of data.entries()) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        throw bad(`data[${i}]`, `data[${i}] must be an object: a collection is a list of objects`);
      }
      const given = (item as Record<string, unknown>).id;
      if (given === undefined) continue;
      const id = checkId(given, `data[${i}].id`);
      if (seen.has(String(id))) throw bad(`data[${i}].id`, `data[${i}].id ${JSON.stringify(id)} is there twice`);
      seen.add(String(id));
    }
  } else if (typeof data !== 'object' || data === null) {
    throw bad('data', 'the data of a collection must be a list of objects, or one object');
  }
  input.collection = true;
}

/** An item id: a number or a non-empty string. */
export function checkId(value: unknown, field: string): number | string {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value !== '') return value;
  throw new HttpError(400, `${field} must be a number or a non-empty string`, field);
}
