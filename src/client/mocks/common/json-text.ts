import { ApiError } from './api.js';
import { findJsonError } from '../../../shared/json-check.js';

/**
 * The JSON in a text box, or an ApiError naming `field` (shown at the box like the server's own
 * errors) saying where it goes wrong. `objectOnly` for the parts of a `when` that must be objects.
 */
export function parseJsonText(text: string, field: string, objectOnly = false): unknown {
  const error = findJsonError(text);
  if (error) {
    const before = text.slice(0, error.pos).split('\n');
    throw new ApiError(`${field}: line ${before.length}, column ${before.at(-1)!.length + 1}: ${error.message}`, field);
  }
  const value: unknown = JSON.parse(text);
  if (objectOnly && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw new ApiError(`${field} must be a JSON object`, field);
  }
  return value;
}

/** A value for a text box: indented JSON. */
export const jsonText = (value: unknown): string => JSON.stringify(value, null, 2);
