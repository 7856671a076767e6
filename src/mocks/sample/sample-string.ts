import { samplePattern } from './sample-pattern.js';

type Json = Record<string, unknown>;

// One value per format JSON Schema and OpenAPI name, each valid for it (ajv-formats' checks included).
const FORMATS: Record<string, string> = {
  'date-time': '2019-08-24T14:15:22Z',
  date: '2019-08-24',
  time: '14:15:22Z',
  duration: 'P3D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.168.0.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com',
  'uri-reference': '../dictionary',
  iri: 'https://example.com',
  'iri-reference': '../dictionary',
  'uri-template': 'https://example.com/{id}',
  url: 'https://example.com',
  uuid: '095be615-a8ad-4c33-8e9c-c7612fbf6c9f',
  'json-pointer': '/a/b',
  'relative-json-pointer': '0/a',
  regex: '^[a-z]+$',
  byte: 'U3dhZ2dlciByb2Nrcw==',
  base64: 'U3dhZ2dlciByb2Nrcw==',
  password: 'pa$$word',
  binary: '',
  int32: '0',
  int64: '0',
};

/**
 * A string for `schema`: its format's value, else one its `pattern` matches, else `string`; then
 * padded or cut to `minLength`/`maxLength` (a format's value is kept whole). `variant` makes the
 * items of a `uniqueItems` array differ.
 */
export function sampleString(schema: Json, variant = 0): string {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (format !== undefined) return format;
  const min = typeof schema.minLength === 'number' ? Math.min(schema.minLength, 1024) : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  if (typeof schema.pattern === 'string') {
    for (const generous of [false, true]) {
      const matching = samplePattern(schema.pattern, variant, generous);
      if (matching !== undefined && matching.length >= min && matching.length <= max) return matching;
    }
  }
  let text = variant === 0 ? 'string' : `string${variant}`;
  if (text.length < min) text = text.padEnd(min, 'x');
  return text.length > max ? text.slice(0, Math.max(0, max)) : text;
}

/** A number for `schema` within its bounds (exclusive ones as numbers or as draft-04 booleans) and a multiple of `multipleOf`. */
export function sampleNumber(schema: Json, type: 'number' | 'integer', variant = 0): number {
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : type === 'integer' ? 1 : 0;
  const above = bound(schema, 'minimum', 'exclusiveMinimum');
  const below = bound(schema, 'maximum', 'exclusiveMaximum');
  let value = variant;
  if (above && (value < above.value || (above.exclusive && value === above.value))) value = above.value + (above.exclusive ? step || 1 : 0) + variant;
  if (below && (value > below.value || (below.exclusive && value === below.value))) value = below.value - (below.exclusive ? step || 1 : 0) - variant;
  if (step > 0) value = Math.ceil(value / step) * step;
  if (type === 'integer') value = Math.ceil(value);
  return value;
}

function bound(schema: Json, plain: string, exclusive: string): { value: number; exclusive: boolean } | undefined {
  const flag = schema[exclusive];
  if (typeof flag === 'number') return { value: flag, exclusive: true };
  const value = schema[plain];
  return typeof value === 'number' ? { value, exclusive: flag === true } : undefined;
}
