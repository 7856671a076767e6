import { HttpError } from '../../http/errors.js';
import { origin } from './source-sync.js';

// Why the store refuses a write: each a client error naming the setting or the place to change.

// Files are the truth: an edit through the API would be lost at the file's next change.
export function fromSourceError(name: string, source: string): HttpError {
  return new HttpError(409, `endpoint '${name}' comes from ${origin(source)}: change or delete it there`, 'name');
}

// Refused here, where both the endpoints and the writes under way are counted.
export function fullError(max: number): HttpError {
  const message = `no room for another endpoint: the server holds at most ${max} (--max-endpoints); delete one first`;
  return new HttpError(507, message);
}

// Refused before anything is stored: the records' memory is charged at its measured cost (record/cost.ts).
export function noMemoryError(max: number): HttpError {
  const message = `no room for this endpoint: records may take at most ${max} bytes of memory (--max-store-bytes); delete some first`;
  return new HttpError(507, message);
}

// A 409: which endpoint is in the way is known only as the write is made (here, or in an import's check).
export function conflictError(pattern: string, other: string): HttpError {
  return new HttpError(
    409,
    `path '${pattern}' overlaps endpoint '${other}': same route shape with a method in common`,
    'path',
  );
}
