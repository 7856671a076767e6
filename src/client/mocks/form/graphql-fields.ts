import type { EndpointInput, EndpointRecord, ResponseInput } from '../common/api.js';
import { byId } from '../common/dom.js';
import { jsonText, parseJsonText } from '../common/json-text.js';

/** Where the server placed a schema problem: its message ends `(line 4, column 1)` (docs/mock-api.md, "GraphQL"). */
const PLACE = /\(line (\d+), column (\d+)\)$/;

export type GraphqlFields = {
  /** The GraphQL fields of the form as record fields (`kind`, `schema`, and mocks and responses when given). */
  read(): EndpointInput;
  fill(record: Partial<EndpointRecord>): void;
  /** Puts the cursor where the server said the schema goes wrong; false when it said no place. */
  place(message: string): boolean;
};

/**
 * The SDL box and the GraphQL endpoint's mocks and responses (as JSON text), in #graphql-fields,
 * shown when the form's Kind is GraphQL. The schema is checked where it is saved, by the
 * server's own graphql package, so its errors are placed from the answer rather than checked twice.
 */
export function createGraphqlFields(): GraphqlFields {
  const schema = byId<HTMLTextAreaElement>('schema');
  const mocks = byId<HTMLTextAreaElement>('graphql-mocks');
  const responses = byId<HTMLTextAreaElement>('graphql-responses');
  return {
    read() {
      const input: EndpointInput = { name: '', statusCode: 200, delay: 0, kind: 'graphql', schema: schema.value };
      if (mocks.value.trim() !== '') input.mocks = parseJsonText(mocks.value, 'mocks', true) as Record<string, unknown>;
      // Checked by the server like any record; here only as JSON.
      if (responses.value.trim() !== '') input.responses = parseJsonText(responses.value, 'responses') as ResponseInput[];
      return input;
    },
    fill(record) {
      const graphql = record.kind === 'graphql';
      schema.value = graphql ? (record.schema ?? '') : '';
      mocks.value = graphql && record.mocks ? jsonText(record.mocks) : '';
      responses.value = graphql && record.responses ? jsonText(record.responses) : '';
    },
    place(message) {
      const found = PLACE.exec(message);
      if (!found) return false;
      const lines = schema.value.split('\n');
      const line = Math.min(Number(found[1]), lines.length);
      const at = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + Number(found[2]) - 1;
      schema.focus();
      schema.setSelectionRange(at, Math.min(at + 1, schema.value.length));
      return true;
    },
  };
}
