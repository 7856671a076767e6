import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders, preflightHeaders } from '../../http/cors.js';
import { buildHead, ENDPOINT_CORS, NO_BODY } from './answer-head.js';
import type { Endpoint } from '../store/endpoint.js';
import type { Answer } from './responder.js';
import { decoded } from './request-input.js';

/** Writing an answer under /endpoint/, and the answers the server gives itself: refusals as JSON. */

/** A plain endpoint's fixed answer, its head built once. */
export function plainAnswer(endpoint: Endpoint, cors: boolean): Answer {
  const { statusCode: status, headers = {}, name } = endpoint.record;
  const { body } = endpoint;
  return { status, head: buildHead(status, headers, body.length, 'application/json; charset=utf-8', cors, name), body };
}

export function send(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  res.writeHead(answer.status, answer.head);
  if (req.method === 'HEAD' || NO_BODY.has(answer.status)) res.end();
  else res.end(answer.body);
}

/** A preflight's 204: every method, the headers the browser asked for. Not a hit, not logged. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, preflightHeaders(ENDPOINT_CORS, req).flat());
  res.end();
}

export function notFound(req: IncomingMessage, res: ServerResponse, path: string, cors: boolean): void {
  const clean = path.endsWith('/') ? path.slice(0, -1) : path;
  // One segment is a name, as before paths existed; say so in the same words.
  const named = clean !== '' && !clean.includes('/');
  const message = named ? `no endpoint named '${decoded(clean)}'` : `no endpoint at '/endpoint/${clean}'`;
  send(req, res, jsonAnswer(404, { success: false, message }, cors));
}

/** Routes match the path, none the method. */
export function notAllowed(req: IncomingMessage, res: ServerResponse, allow: string[], cors: boolean): void {
  const message = `${req.method} is not allowed here; allowed: ${allow.join(', ')}`;
  const answer = jsonAnswer(405, { success: false, message }, cors);
  answer.head.push('Allow', allow.join(', '));
  send(req, res, answer);
}

export function jsonAnswer(status: number, value: unknown, cors: boolean): Answer {
  const body = Buffer.from(JSON.stringify(value));
  const head = ['Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(body.length)];
  if (cors) head.push(...corsHeaders(ENDPOINT_CORS).flat());
  return { status, head, body };
}
