import type { Router } from '@koa/router';
import { HttpError } from '../http/errors.js';
import { isJsonObject, readJsonBody } from '../http/json-body.js';
import { sendJson } from '../http/json-answer.js';
import { clientIp } from './log/request-log.js';
import type { MockStore } from './store/store.js';
import type { StreamServer } from './streams/streams.js';

/**
 * The routes of WebSocket and event-stream endpoints (docs/mock-api.md): a broadcast to every open
 * connection of one, and the list of them the page shows.
 */
export function addStreamRoutes(router: Router, store: MockStore, streams: StreamServer, options: { maxBody: number; trustProxy: boolean }): void {
  const streamed = (name: string) => {
    const endpoint = store.get(name);
    if (!endpoint) throw new HttpError(404, `no endpoint named '${name}'`);
    const { kind } = endpoint.record;
    if (kind !== 'websocket' && kind !== 'sse') {
      throw new HttpError(400, `endpoint '${name}' is not of kind websocket or sse: it has no connections`, 'name');
    }
    return endpoint;
  };

  // `{"data": …}`: a string is sent as text, anything else as JSON; not a template.
  router.post('/endpoint/:name/broadcast', async (ctx) => {
    const { name } = streamed(ctx.params.name!).record;
    const body = await readJsonBody(ctx, { limit: options.maxBody });
    if (!isJsonObject(body) || !Object.hasOwn(body, 'data')) {
      throw new HttpError(400, 'send a JSON object with the data to send: {"data": …}', 'data');
    }
    const { data } = body;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    const from = { method: ctx.method, url: ctx.url, ip: clientIp(ctx.req, options.trustProxy), headers: {} };
    sendJson(ctx, { success: true, name, sent: streams.broadcast(name, text, from) });
  });

  router.get('/endpoint/:name/connections', (ctx) => {
    const { name } = streamed(ctx.params.name!).record;
    sendJson(ctx, { success: true, name, connections: streams.connections(name) });
  });
}
