import type { MockInput, StoredMock } from '../record/record.js';
import type { EndpointStats } from '../log/request-log.js';
import { ROOT_PATH } from '../record/validate-route.js';

/** An endpoint ready to serve: its record, the body bytes, and its in-memory counters. */
export type Endpoint = {
  record: StoredMock;
  /** The endpoint's own body bytes: its data as JSON, its text body, or its base64 body decoded. */
  body: Buffer;
  stats: EndpointStats;
  /** Where the record comes from (`file:mocks/users.yaml`) when not the API; not kept in the data file. */
  source?: string;
};

/** A stored record as an endpoint: its body bytes made once. */
export function toEndpoint(record: StoredMock, stats: EndpointStats, source?: string): Endpoint {
  const body = record.base64Body === undefined ? Buffer.from(record.json ?? record.body ?? '', 'utf8') : Buffer.from(record.base64Body, 'base64');
  const endpoint: Endpoint = { record, body, stats };
  if (source) endpoint.source = source;
  return endpoint;
}

/** The route under /endpoint/: the path, or the name as a single segment (records from before paths). */
export function patternOf(input: MockInput): string {
  // The root path is the route with no segments.
  const base = input.path === ROOT_PATH ? '' : (input.path ?? input.name);
  // A collection answers its list, each item and json-server's nested routes (`posts`, `posts/1`, `posts/1/comments`).
  return input.collection ? `${base}/:id?/:nested?` : base;
}
