import { createSourceLoader, type SourceLoader } from '../../../src/mocks/sources/loader.js';
import { dbFileParser } from '../../../src/mocks/sources/db-file-parser.js';
import { startMockServer, type StartOptions, type TestMockServer } from '../server.js';

/**
 * The database of json-server 0.17.4's own router test (`__tests__/server/plural.js`), written out
 * here: numbered and text ids, nested fields, and two collections (`deep`, `nested`) whose items
 * have no id at all.
 */
export function pluralDb() {
  return {
    posts: [
      { id: 1, body: 'foo' },
      { id: 2, body: 'bar' },
    ],
    tags: [
      { id: 1, body: 'Technology' },
      { id: 2, body: 'Photography' },
      { id: 3, body: 'photo' },
    ],
    users: [
      { id: 1, username: 'Jim', tel: '0123' },
      { id: 2, username: 'George', tel: '123' },
    ],
    comments: [
      { id: 1, body: 'foo', published: true, postId: 1, userId: 1 },
      { id: 2, body: 'bar', published: false, postId: 1, userId: 2 },
      { id: 3, body: 'baz', published: false, postId: 2, userId: 1 },
      { id: 4, body: 'qux', published: true, postId: 2, userId: 2 },
      { id: 5, body: 'quux', published: false, postId: 2, userId: 1 },
    ],
    buyers: [
      { id: 1, name: 'Aileen', country: 'Colombia', total: 100 },
      { id: 2, name: 'Barney', country: 'Colombia', total: 200 },
      { id: 3, name: 'Carley', country: 'Colombia', total: 300 },
      { id: 4, name: 'Daniel', country: 'Belize', total: 30 },
      { id: 5, name: 'Ellen', country: 'Belize', total: 20 },
      { id: 6, name: 'Frank', country: 'Belize', total: 10 },
      { id: 7, name: 'Grace', country: 'Argentina', total: 1 },
      { id: 8, name: 'Henry', country: 'Argentina', total: 2 },
      { id: 9, name: 'Isabelle', country: 'Argentina', total: 3 },
    ],
    refs: [{ id: 'abcd-1234', url: 'http://example.com', postId: 1, userId: 1 }],
    stringIds: [{ id: '1234' }],
    deep: [{ a: { b: 1 } }, { a: 1 }],
    nested: [{ resource: { name: 'dewey' } }, { resource: { name: 'cheatem' } }, { resource: { name: 'howe' } }],
    list: Array.from({ length: 15 }, (_, i) => ({ id: i + 1 })),
  };
}

/** json-server 0.17.4's `src/cli/example.json`: what `json-server --watch db.json` writes for a new user. */
export const EXAMPLE_DB = `{
  "posts": [
    { "id": 1, "title": "json-server", "author": "typicode" }
  ],
  "comments": [
    { "id": 1, "body": "some comment", "postId": 1 }
  ],
  "profile": { "name": "typicode" }
}`;

export type DbServer = { server: TestMockServer; loader: SourceLoader; close(): Promise<void> };

/** A started mock server serving `text` as `serve-mocks --db db.json` does (the file's parser and loader). */
export async function startDbServer(text: string, options: StartOptions = {}): Promise<DbServer> {
  const loader = createSourceLoader({ maxDelay: 60_000 });
  const server = await startMockServer({ ...options, sources: loader });
  await loader.apply(server.store, 'db.json', text, dbFileParser());
  return { server, loader, close: () => server.close() };
}
