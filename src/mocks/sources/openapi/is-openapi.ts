/**
 * Whether a parsed file is an OpenAPI 3 or Swagger 2.0 document rather than endpoint records: it
 * has a top-level `openapi` or `swagger` key. Kept apart from the parser, which is loaded only then.
 */
export function isOpenapi(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return 'openapi' in value || 'swagger' in value;
}
