import { expect } from 'chai';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { buildClientSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { startMockServer, type TestMockServer } from '../server.js';
import { expectMatchesSchema, schema, SDL } from './fixture.js';

const USER = gql`
  query User($id: ID!) {
    user(id: $id) { id name age score active role born friends(first: 2) { id name } }
  }
`;
const SEARCH = gql`
  query Search {
    search(text: "x") { __typename ... on User { id name } ... on Post { id title author { name } } }
    node(id: "1") { __typename id }
  }
`;

describe('GraphQL endpoints', () => {
  let server: TestMockServer;
  let client: GraphQLClient;
  before(async () => {
    server = await startMockServer();
    const saved = await server.putJson('/api/endpoint/shop', {
      kind: 'graphql',
      path: 'graphql',
      schema: SDL,
      mocks: {
        'Query.user': { id: '{{args.id}}', name: 'User {{args.id}}' },
        Role: 'ADMIN',
      },
      responses: [
        { when: { operationName: 'Pay', variables: { amount: 0 } }, errors: [{ message: 'declined' }], statusCode: 402 },
        { when: { operationName: 'Pay' }, data: { pay: true } },
      ],
    });
    expect(saved.status).to.equal(201);
    client = new GraphQLClient(`${server.url}/endpoint/graphql`);
  });
  after(() => server.close());

  it('answers a query through graphql-request with values of the schema', async () => {
    const data = await client.request<Record<string, unknown>>(USER, { id: '7' });
    expectMatchesSchema(USER, data, { id: '7' });
  });

  it('answers interfaces and unions with a concrete type of the schema', async () => {
    const data = await client.request<Record<string, unknown>>(SEARCH);
    expectMatchesSchema(SEARCH, data);
    const kinds = (data.search as { __typename: string }[]).map((r) => r.__typename);
    expect(kinds).to.have.length(2);
    for (const kind of kinds) expect(['User', 'Post']).to.include(kind);
  });

  it('answers the same query and arguments with the same values, other arguments with others', async () => {
    const one = await client.request(SEARCH);
    const two = await client.request(SEARCH);
    expect(two).to.deep.equal(one);
    const friends = gql`query F($n: Int) { users { friends(first: $n) { id } } }`;
    const a = await client.request(friends, { n: 1 });
    expect(await client.request(friends, { n: 1 })).to.deep.equal(a);
    expect(await client.request(friends, { n: 2 })).to.not.deep.equal(a);
  });

  it('renders mocks by field with the arguments, and by type', async () => {
    const data = await client.request<{ user: { id: string; name: string; role: string } }>(USER, { id: '42' });
    expect(data.user).to.include({ id: '42', name: 'User 42', role: 'ADMIN' });
  });

  it('answers a matching response with its errors and status, another with its data', async () => {
    const pay = gql`mutation Pay($amount: Float!) { pay(amount: $amount) }`;
    const refused = await client.request(pay, { amount: 0 }).catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(ClientError);
    const { response } = refused as ClientError;
    expect(response.status).to.equal(402);
    expect(response.errors).to.deep.equal([{ message: 'declined' }]);
    expect(await client.request(pay, { amount: 5 })).to.deep.equal({ pay: true });
  });

  it("gives graphql's own validation errors with locations and no data", async () => {
    const res = await server.fetch('/endpoint/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ user(id: "1") { nmae } }' }),
    });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).to.not.have.property('data');
    expect(body.errors).to.deep.equal([
      { message: 'Cannot query field "nmae" on type "User". Did you mean "name"?', locations: [{ line: 1, column: 19 }] },
    ]);
  });

  it('answers a request error 400 to a client that accepts application/graphql-response+json', async () => {
    const res = await server.fetch('/endpoint/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ user(id: "1") {' }),
    });
    expect(res.status).to.equal(400);
    expect(res.headers.get('content-type')).to.equal('application/graphql-response+json; charset=utf-8');
    expect(((await res.json()) as { errors: { message: string }[] }).errors[0]!.message).to.match(/^Syntax Error/);
  });

  it('answers GET ?query= and a POST of application/graphql, and refuses a mutation by GET', async () => {
    const query = '{ users { id } }';
    const got = await server.fetch(`/endpoint/graphql?query=${encodeURIComponent(query)}`);
    expect(got.status).to.equal(200);
    const answer = (await got.json()) as { data: unknown };
    expectMatchesSchema(query, answer.data);
    const posted = await server.fetch('/endpoint/graphql', { method: 'POST', headers: { 'content-type': 'application/graphql' }, body: query });
    expect(await posted.json()).to.deep.equal(answer);
    const mutation = await server.fetch(`/endpoint/graphql?query=${encodeURIComponent('mutation { pay(amount: 1) }')}`);
    expect(mutation.status).to.equal(405);
    expect(mutation.headers.get('allow')).to.equal('POST');
  });

  it('answers introspection, so a client can rebuild the schema', async () => {
    const data = await client.request<IntrospectionQuery>(getIntrospectionQuery());
    expect(printSchema(buildClientSchema(data))).to.equal(printSchema(schema));
  });

  it('keeps the record as given: GET gives back kind, schema, mocks and responses; the list names the kind', async () => {
    const record = (await (await server.fetch('/api/endpoint/shop')).json()) as Record<string, unknown>;
    expect(record).to.include({ kind: 'graphql', schema: SDL, path: 'graphql' });
    expect(record.mocks).to.deep.equal({ 'Query.user': { id: '{{args.id}}', name: 'User {{args.id}}' }, Role: 'ADMIN' });
    expect((record.responses as unknown[])[0]).to.deep.equal({
      when: { operationName: 'Pay', variables: { amount: 0 } },
      statusCode: 402,
      errors: [{ message: 'declined' }],
    });
    const again = await server.putJson('/api/endpoint/shop', record);
    expect(again.status).to.equal(200);
    const list = (await (await server.fetch('/api/endpoints')).json()) as { endpoints: { name: string; kind?: string }[] };
    expect(list.endpoints.find((e) => e.name === 'shop')?.kind).to.equal('graphql');
  });

  it("logs each request with its operation's name", async () => {
    await client.request(USER, { id: '1' });
    const log = (await (await server.fetch('/api/endpoint/shop/requests')).json()) as { requests: { operationName?: string }[] };
    expect(log.requests[0]!.operationName).to.equal('User');
  });
});
