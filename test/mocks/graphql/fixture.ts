import { expect } from 'chai';
import { buildSchema, execute, parse, validate, type GraphQLSchema } from 'graphql';

/** A schema with each kind of type the mocks answer: scalars, a custom scalar, an enum, an interface, a union, lists, a mutation. */
export const SDL = `
scalar DateTime
enum Role { ADMIN USER GUEST }
interface Node { id: ID! }
type User implements Node {
  id: ID!
  name: String!
  age: Int
  score: Float
  active: Boolean!
  role: Role!
  born: DateTime
  friends(first: Int): [User!]!
}
type Post implements Node { id: ID! title: String! author: User! }
union SearchResult = User | Post
type Query {
  user(id: ID!): User
  users: [User!]!
  search(text: String!): [SearchResult!]!
  node(id: ID!): Node
}
type Mutation { pay(amount: Float!): Boolean! }
`;

export const schema: GraphQLSchema = buildSchema(SDL);

/**
 * Checks an answer against the schema with graphql's own machinery: the query is valid, and
 * executing it over the answer's data (each field read back by its response key, abstract types by
 * __typename) gives the same data with no errors, so every value is of its field's type.
 */
export function expectMatchesSchema(query: string, data: unknown, variables?: Record<string, unknown>): void {
  const document = parse(query);
  expect(validate(schema, document)).to.deep.equal([]);
  const result = execute({
    schema,
    document,
    rootValue: data,
    variableValues: variables,
    fieldResolver: (source, _args, _context, info) => (source as Record<string, unknown>)[info.path.key as string],
  });
  expect(result).to.not.be.instanceOf(Promise);
  const { errors, data: again } = result as { errors?: unknown[]; data?: unknown };
  expect(errors ?? []).to.deep.equal([]);
  expect(JSON.parse(JSON.stringify(again))).to.deep.equal(data);
}
