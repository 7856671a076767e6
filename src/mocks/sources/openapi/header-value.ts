import { sample } from 'openapi-sampler';
import { asObject } from './media-answer.js';

type Json = Record<string, unknown>;

/**
 * The value a documented response header is sent with: its example (the Header Object's `example`,
 * its first inline `examples` value, its schema's `example` or `default`), else a sample of its schema
 * (as Prism sends them); a list is sent as its items joined with commas (style `simple`). Undefined
 * when there is nothing a header can say: no schema, an object, a sample that fails.
 */
export function headerValue(spec: Json, swagger: boolean): string | undefined {
  // Swagger 2.0's header is its own schema.
  const schema = asObject(swagger ? spec : spec.schema);
  const given = spec.example ?? firstExample(asObject(spec.examples)) ?? schema.example ?? schema.default;
  let value = given;
  if (value === undefined && Object.keys(schema).length > 0) {
    try {
      value = sample(schema as never, { quiet: true, maxSampleDepth: 2 } as never);
    } catch {
      return undefined;
    }
  }
  if (Array.isArray(value)) value = value.every(isScalar) ? value.join(',') : undefined;
  return isScalar(value) ? String(value) : undefined;
}

function firstExample(examples: Json): unknown {
  for (const example of Object.values(examples)) {
    const value = asObject(example).value;
    if (value !== undefined) return value;
  }
  return undefined;
}

function isScalar(value: unknown): value is string | number | boolean {
  return ['string', 'number', 'boolean'].includes(typeof value);
}
