import type { IncomingMessage } from 'node:http';
import type { StoredMock } from '../record/record.js';
import type { Answer, Responder, Variant } from './responder.js';

/** The status a request asks for, or why what it asked for is not a status. */
export type WantedStatus = { field: 'prefer' | '__code' } & ({ status: number } | { message: string });

/**
 * The status a request picks with `?__code=404` or `Prefer: code=404` (as Prism reads them; the
 * query wins when both are given), undefined when it picks none. Cheap for every other request:
 * one header lookup and one substring test.
 */
export function wantedStatus(req: IncomingMessage): WantedStatus | undefined {
  // Node joins a repeated header it does not know into one string, so no list is ever seen here.
  const prefer = req.headers.prefer as string | undefined;
  const url = req.url ?? '';
  const inQuery = url.includes('__code=');
  if (prefer === undefined && !inQuery) return undefined;
  const fromQuery = inQuery ? new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('__code') : null;
  if (fromQuery !== null) return checked(fromQuery, '__code');
  const fromPrefer = prefer === undefined ? undefined : preference(prefer, 'code');
  return fromPrefer === undefined ? undefined : checked(fromPrefer, 'prefer');
}

/**
 * The value of preference `name` in a Prefer header (RFC 7240: `code=404, example="a b"; x=y`):
 * preferences split at commas outside quotes, parameters after `;` ignored, names without regard to case.
 */
export function preference(header: string, name: string): string | undefined {
  for (const head of preferenceHeads(header)) {
    const equals = head.indexOf('=');
    const key = (equals === -1 ? head : head.slice(0, equals)).trim();
    if (key.toLowerCase() !== name) continue;
    const value = equals === -1 ? '' : head.slice(equals + 1).trim();
    return value.length > 1 && value.startsWith('"') && value.endsWith('"')
      ? value.slice(1, -1).replace(/\\(.)/g, '$1')
      : value;
  }
  return undefined;
}

/**
 * Each preference's `name=value`, without its parameters. One pass over the header: a regular
 * expression for quoted strings backtracks over an unclosed quote, quadratic in what a client sends.
 */
function preferenceHeads(header: string): string[] {
  const heads: string[] = [];
  let head = '';
  let inHead = true;
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i]!;
    if (quoted && c === '\\') {
      if (inHead) head += c + (header[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === ',') {
      heads.push(head);
      [head, inHead] = ['', true];
      continue;
    } else if (!quoted && c === ';') inHead = false;
    if (inHead) head += c;
  }
  heads.push(head);
  return heads;
}

/** Every status an endpoint answers with: its own, then its responses', each once. */
export function statusesOf(record: StoredMock): number[] {
  const own = record.statusCode;
  return [...new Set([own, ...(record.responses ?? []).map((response) => response.statusCode ?? own)])];
}

/** A request's status choice refused: 400 for a value that is no status, 422 when no answer has it. */
export type StatusRefusal = { refused: 400 | 422; message: string; field: string };

/**
 * The variant answering with the status asked for: `true` for a plain endpoint's one answer (its
 * fast path serves it), a variant of a responder, or a refusal.
 */
export function pickStatus(
  wanted: WantedStatus,
  ready: Answer | Responder,
  record: StoredMock,
): Variant | true | StatusRefusal {
  const { field } = wanted;
  if (!('status' in wanted)) return { refused: 400, message: wanted.message, field };
  const picked = 'head' in ready ? ready.status === wanted.status : ready.withStatus(wanted.status);
  if (picked) return picked;
  const there = `this endpoint answers ${statusesOf(record).join(', ')}`;
  return { refused: 422, message: `no answer with status ${wanted.status} here; ${there}`, field };
}

function checked(value: string, field: 'prefer' | '__code'): WantedStatus {
  const status = /^\d{3}$/.test(value) ? Number(value) : NaN;
  if (status >= 200 && status <= 599) return { status, field };
  const given = field === 'prefer' ? `Prefer: code=${value}` : `__code=${value}`;
  return { field, message: `${given} is not a status from 200 to 599` };
}
