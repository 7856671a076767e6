import type { Delay } from '../../mocks/record/record.js';
import { chalk } from '../common/output.js';
import { safeLine, safeLines } from '../common/terminal-text.js';
import { answerText, responseNumber, whenText, type LabelledResponse } from '../../shared/response-label.js';

/** A response as the API shows it: the record's own fields, or one entry of its `responses`. */
type ShownAnswer = {
  statusCode?: number;
  /** A GraphQL response's. */
  errors?: unknown;
  data?: unknown;
  body?: unknown;
  base64Body?: unknown;
  headers?: Record<string, unknown>;
  delay?: Delay;
  fault?: string;
  faultRate?: number;
};
type ShownWhen = LabelledResponse['when'];
export type ShownRecord = ShownAnswer & {
  name: string;
  kind?: string;
  schema?: unknown;
  mocks?: unknown;
  path?: string;
  methods?: string[];
  template?: boolean;
  pick?: string;
  responses?: (ShownAnswer & { when?: ShownWhen })[];
  hits?: number;
  lastCall?: string | null;
  url?: string;
};

/** The fields of a WebSocket or event-stream endpoint's script, as the record answer writes them. */
const SCRIPT_FIELDS = ['onConnect', 'responses', 'echo', 'every', 'close', 'events', 'loop'];

/** `250 ms` or `100-400 ms`. */
export function formatDelay(delay: unknown): string {
  if (typeof delay === 'object' && delay !== null) {
    const { min, max } = delay as { min?: unknown; max?: unknown };
    return `${String(min)}-${String(max)} ms`;
  }
  return `${String(delay ?? 0)} ms`;
}

/** All of one endpoint for a terminal: every string from the server escaped, fields shown only when set. */
export function formatRecord(record: ShownRecord): string {
  if (record.kind === 'websocket' || record.kind === 'sse') return formatScripted(record);
  const summary = `status ${record.statusCode}  delay ${formatDelay(record.delay)}  hits ${record.hits ?? 0}`;
  const lines = [`${chalk.bold(safeLine(record.name))}  ${safeLine(summary)}`];
  const label = (name: string, value: string) => lines.push(`${chalk.dim(name.padEnd(9))} ${safeLine(value)}`);
  if (record.url !== undefined) label('url', record.url);
  if (record.path !== undefined) label('path', record.path);
  if (record.kind !== undefined) label('kind', record.kind);
  if (record.methods) label('methods', record.methods.join(', '));
  if (record.template) label('template', 'on: strings in data, body and headers are rendered per request');
  if (record.lastCall) label('last call', record.lastCall);
  if (record.fault !== undefined) label('fault', formatFault(record));
  lines.push(...formatContent(record, ''));
  // A GraphQL endpoint's schema as written, then its mocks.
  if (typeof record.schema === 'string') lines.push(chalk.dim('schema'), safeLines(record.schema.trimEnd()));
  if (record.mocks !== undefined) lines.push(chalk.dim('mocks'), safeLines(JSON.stringify(record.mocks, null, 2)));
  const responses = record.responses ?? [];
  if (responses.length > 0) {
    lines.push('', chalk.bold(`responses (${responses.length}, pick ${safeLine(record.pick ?? 'first-match')})`));
  }
  for (const [index, response] of responses.entries()) {
    // The label the page and `mock log` show; a body condition in full below it.
    const answer = answerText(response, record.statusCode);
    const label = `${whenText(response.when)}${answer ? ` → ${answer}` : ''}`;
    lines.push(`${chalk.bold(responseNumber(index))} ${safeLine(label)}`);
    if (response.when?.body !== undefined) lines.push(`   ${safeLine(`body contains ${JSON.stringify(response.when.body)}`)}`);
    const settings = [
      response.statusCode !== undefined && `status ${response.statusCode}`,
      response.delay !== undefined && `delay ${formatDelay(response.delay)}`,
      response.fault !== undefined && `fault ${formatFault(response)}`,
    ].filter(Boolean);
    if (settings.length > 0) lines.push(`   ${safeLine(settings.join('  '))}`);
    lines.push(...formatContent(response, '   '));
  }
  return lines.join('\n');
}

/** A WebSocket or event-stream endpoint: its kind, where it is, and its script as indented JSON. */
function formatScripted(record: ShownRecord): string {
  const fields = record as Record<string, unknown>;
  const lines = [`${chalk.bold(safeLine(record.name))}  ${safeLine(`${record.kind}  connections ${record.hits ?? 0}`)}`];
  if (record.url !== undefined) lines.push(`${chalk.dim('url'.padEnd(9))} ${safeLine(record.url)}`);
  const script = Object.fromEntries(SCRIPT_FIELDS.filter((field) => fields[field] !== undefined).map((field) => [field, fields[field]]));
  lines.push(...safeLines(JSON.stringify(script, null, 2)).split('\n'));
  return lines.join('\n');
}

function formatFault(answer: ShownAnswer): string {
  const rate = answer.faultRate;
  if (rate === undefined || rate === 1) return String(answer.fault);
  return `${answer.fault} on ${Math.round(rate * 1000) / 10}% of requests`;
}

/** Headers, then the data (as indented JSON), the text body, or how many bytes a base64 body holds. */
function formatContent(answer: ShownAnswer, indent: string): string[] {
  const lines = Object.entries(answer.headers ?? {}).map(
    ([name, value]) => `${indent}${chalk.dim('header')} ${safeLine(`${name}: ${String(value)}`)}`,
  );
  if (answer.errors !== undefined) {
    lines.push(`${indent}${chalk.dim('errors')}`, ...safeLines(JSON.stringify(answer.errors, null, 2)).split('\n').map((line) => indent + line));
  }
  let content: string | undefined;
  if (answer.data !== undefined) content = JSON.stringify(answer.data, null, 2);
  else if (typeof answer.body === 'string') content = answer.body;
  else if (typeof answer.base64Body === 'string') {
    // Bytes would garble a terminal: their count says what is there.
    lines.push(`${indent}${chalk.dim('bytes')} ${Buffer.from(answer.base64Body, 'base64').length} (base64Body)`);
  }
  if (content !== undefined) {
    const kind = answer.data !== undefined ? 'data' : 'body';
    // the endpoint's own data is shown unlabelled, as before; a text body always says what it is
    if (indent !== '' || kind === 'body') lines.push(`${indent}${chalk.dim(kind)}`);
    lines.push(...safeLines(content).split('\n').map((line) => indent + line));
  }
  return lines;
}
