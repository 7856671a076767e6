import type { MockInput, ResponseRecord } from './record.js';
import { compileJson, compileText, newCompileBudget, TemplateError } from '../templates/template.js';
import type { CompileBudget, Render } from '../templates/template.js';
import { isHeaderValue } from './validate-fields.js';

/** One answer's templates: what is absent there is not templated (or not set). */
export type CompiledAnswer = {
  json?: Render;
  body?: Render;
  headers?: [name: string, render: Render][];
};

export type CompiledRecord = { answer: CompiledAnswer; responses: CompiledAnswer[] };

/**
 * Compiles every template of a record with `template: true` (the strings of data, body and
 * headers, the endpoint's and each response's). Throws a TemplateError naming the field.
 */
export function compileRecord(record: MockInput): CompiledRecord {
  const budget = newCompileBudget();
  return {
    answer: compileAnswer(record, '', budget),
    responses: (record.responses ?? []).map((response, i) => compileAnswer(response, `responses[${i}].`, budget)),
  };
}

function compileAnswer(answer: MockInput | ResponseRecord, prefix: string, budget: CompileBudget): CompiledAnswer {
  const compiled: CompiledAnswer = {};
  if (answer.json !== undefined) compiled.json = compileJson(answer.json, `${prefix}data`, budget);
  if (answer.body !== undefined) compiled.body = compileText(answer.body, `${prefix}body`, budget);
  if (answer.headers) {
    compiled.headers = Object.entries(answer.headers).map(([name, source]) => {
      const field = `${prefix}headers.${name}`;
      const render = compileText(source, field, budget);
      return [name, (input) => checkedHeader(render(input), field)];
    });
  }
  return compiled;
}

function checkedHeader(value: string, field: string): string {
  // A rendering may hold any character, as the request supplies it.
  if (!isHeaderValue(value)) throw new TemplateError(field, 'the value has characters not allowed in a header');
  return value;
}
