import { expect } from 'chai';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphQLClient } from 'graphql-request';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';

type Sources = { errors: { file: string; message: string; line?: number; column?: number }[] };

describe('snippetkit serve-mocks --graphql (a real process)', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    temp.cleanup();
  });

  it('serves the schema at /endpoint/graphql, lists it, and follows the file, reporting a broken one with its place', async () => {
    const schema = join(temp.dir, 'schema.graphql');
    writeFileSync(schema, 'type Query { hello: String! }\n');
    server = await startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite'), '--graphql', schema]);
    const client = new GraphQLClient(`${server.url}/endpoint/graphql`);
    const hello = await client.request<{ hello: string }>('{ hello }');
    expect(hello.hello).to.be.a('string');
    const list = (await (await fetch(`${server.url}/api/endpoints`)).json()) as { endpoints: { name: string; kind?: string; source?: string }[] };
    expect(list.endpoints).to.have.length(1);
    expect(list.endpoints[0]).to.include({ name: 'graphql', kind: 'graphql', source: `file:${schema}` });

    writeFileSync(schema, 'type Query {\n  hello: String!\n  count: Int\n');
    const sources = async () => (await (await fetch(`${server!.url}/api/sources`)).json()) as Sources;
    await until(async () => (await sources()).errors.length === 1);
    const [error] = (await sources()).errors;
    expect(error).to.include({ file: schema, line: 4, column: 1 });
    expect(error!.message).to.equal('not a valid GraphQL schema: Syntax Error: Expected Name, found <EOF>.');
    expect(await client.request('{ hello }')).to.have.property('hello');

    // an editor's save: a new file renamed over the old one
    writeFileSync(`${schema}.new`, 'type Query {\n  hello: String!\n  count: Int\n}\n');
    renameSync(`${schema}.new`, schema);
    await until(async () => (await fetch(`${server!.url}/endpoint/graphql?query={count}`)).status === 200 && (await sources()).errors.length === 0);
    expect(await client.request<{ count: number }>('{ count }')).to.have.property('count').that.is.a('number');
  });

  it('serves at --graphql-path', async () => {
    const schema = join(temp.dir, 'schema.graphql');
    writeFileSync(schema, 'type Query { hello: String! }\n');
    server = await startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite'), '--graphql', schema, '--graphql-path', '/api/gql/']);
    const client = new GraphQLClient(`${server.url}/endpoint/api/gql`);
    expect(await client.request('{ hello }')).to.have.property('hello');
  });

  it('refuses a --graphql-path that cannot name an endpoint, and a --graphql file that is not there', async () => {
    const schema = join(temp.dir, 'schema.graphql');
    writeFileSync(schema, 'type Query { hello: String! }\n');
    const data = join(temp.dir, 'm.sqlite');
    const path = await runCli(['serve-mocks', '--port', '0', '--data', data, '--graphql', schema, '--graphql-path', 'users/:id']);
    expect([path.code, path.stderr]).to.deep.equal([
      2,
      'snippetkit: --graphql-path users/:id: the path must be 1 to 128 characters, each a letter, a digit or one of . _ ~ -, with / between segments\n',
    ]);
    const missing = await runCli(['serve-mocks', '--port', '0', '--data', data, '--graphql', join(temp.dir, 'nope.graphql')]);
    expect([missing.code, missing.stderr]).to.deep.equal([2, `snippetkit: --graphql ${join(temp.dir, 'nope.graphql')}: no such file\n`]);
  });
});
