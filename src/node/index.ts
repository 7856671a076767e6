// The package's main export (`import { startMockServer } from 'snippetkit'`): what a test suite needs,
// with its types. Importing it starts nothing and loads no CLI code (docs/testing-with-mocks.md).
export { startMockServer } from './mock-server.js';
export type { JournalEntry, LoggedRequest, MockDetails, MockRecord, MockResponse, MockServer, MockServerOptions, MockSummary, RequestFilter, StoredRecord, Verification } from './mock-server.js';
export { MockApiError } from './api-client.js';
