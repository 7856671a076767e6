import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { GraphQLClient } from 'graphql-request';
import { startMockServer, type MockServer } from 'snippetkit';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('startMockServer with GraphQL endpoints (the Node API)', () => {
  let mocks: MockServer;
  beforeEach(async () => {
    mocks = await startMockServer({
      endpoints: [
        {
          name: 'api',
          kind: 'graphql',
          schema: 'type Query { me: User! } type User { id: ID! name: String! } type Mutation { pay(cents: Int!): Boolean! }',
          mocks: { 'User.name': 'Ada' },
          responses: [{ when: { operationName: 'Pay' }, errors: [{ message: 'declined' }] }],
        },
      ],
    });
  });
  afterEach(() => mocks.close());

  it('serves a GraphQL endpoint added at start, lists its kind, and logs each operation by name', async () => {
    const client = new GraphQLClient(mocks.endpointUrl('api'));
    expect(await client.request<{ me: { name: string } }>('query Me { me { name } }')).to.deep.equal({ me: { name: 'Ada' } });
    const declined = await client.request('mutation Pay { pay(cents: 5) }').catch((err: { response: { errors: unknown } }) => err.response.errors);
    expect(declined).to.deep.equal([{ message: 'declined' }]);
    expect((await mocks.list()).map((m) => [m.name, m.kind])).to.deep.equal([['api', 'graphql']]);
    expect((await mocks.requests('api')).map((r) => [r.operationName, r.response])).to.deep.equal([
      ['Me', null],
      ['Pay', 0],
    ]);
  });

  it('loads the graphql package only once a GraphQL endpoint is used', async () => {
    // A process of its own: this one has graphql loaded by its client.
    const script = `
      import { createRequire } from 'node:module';
      import { startMockServer } from 'snippetkit';
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((f) => f.includes('/node_modules/graphql/'));
      const mocks = await startMockServer({ endpoints: [{ name: 'rest', data: { ok: true } }] });
      await fetch(mocks.endpointUrl('rest'));
      const before = loaded();
      await mocks.add({ name: 'gql', kind: 'graphql', schema: 'type Query { a: Int }' });
      await fetch(mocks.endpointUrl('gql') + '?query={a}');
      console.log(JSON.stringify([before, loaded()]));
      await mocks.close();
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    expect(JSON.parse(stdout)).to.deep.equal([false, true]);
  });
});
