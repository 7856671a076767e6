import type { LoggedRequest } from '../../src/mocks/log/request-log.js';
import type { StoredMock } from '../../src/mocks/record/record.js';

// Records as the mock store hands them to an engine, for the tests of engines and logs.

const AT = '2026-01-01T00:00:00.000Z';

/** An endpoint record as an engine keeps it: answers `json` with 200, at once. */
export const storedMock = (name: string, json = '{"ok":true}'): StoredMock => ({
  name,
  json,
  statusCode: 200,
  delay: 0,
  created: AT,
  updated: AT,
});

/** A GET of `url` as the request log keeps it: no headers, no body, answered 200. */
export const loggedRequest = (url: string, time = AT): LoggedRequest => ({
  time,
  method: 'GET',
  url,
  ip: '127.0.0.1',
  headers: {},
  body: '',
  bodyTruncated: false,
  response: null,
  status: 200,
});
