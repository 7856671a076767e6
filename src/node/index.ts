// The package's main export (`import { startMockServer, startBinServer } from 'snippetkit'`): what a test suite needs,
// with its types. Importing it starts nothing and loads no CLI code (docs/testing-with-mocks.md).
export { startMockServer } from './mock-server.js';
export type { JournalEntry, LoggedRequest, MockDetails, MockRecord, MockResponse, MockServer, MockServerOptions, MockSummary, RequestFilter, StoredRecord, Verification } from './mock-server.js';
export { startBinServer } from './bin-server.js';
export type { BinConfigInput, BinInput, BinListing, BinRevision, BinServer, BinServerOptions, SavedBin } from './bin-server.js';
export { ApiError, BinApiError, MockApiError } from './api-client.js';
export { SettingsError } from '../server/settings-check.js';
