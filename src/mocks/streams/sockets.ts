import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { MemoryAccount } from '../../gates/memory-budget.js';
import { createRequire } from 'node:module';
import type { WebSocket, WebSocketServer } from 'ws';
import { allows, originPolicy } from '../../http/origins.js';
import { isUpgrade, takeUpgrade } from '../../server/upgrade.js';
import { clientIp, isoNow } from '../log/request-log.js';
import { requestInput } from '../serve/request-input.js';
import type { Endpoint } from '../store/endpoint.js';
import type { Connection, Connections } from './connections.js';
import { compileSocket, runSocketScript, type CompiledSocket } from './socket-script.js';
import { logSource, type StreamLogger } from './stream-log.js';

export type SocketOptions = {
  connections: Connections;
  log: StreamLogger;
  /** false (`--no-cors`): only the server's own pages may connect, as only they may read its answers. */
  cors: boolean;
  trustProxy: boolean;
  maxRequestCpu: number;
  /** False once the endpoint was replaced or deleted: its connections end. */
  current(endpoint: Endpoint): boolean;
  /** What clients that fell behind hold, all together (the `streams` memory account). */
  account?: MemoryAccount;
  /** A refusal in the mock server's JSON shape. */
  refuse(res: ServerResponse, status: number, message: string, head?: Record<string, string>): void;
};

// RFC 6455 4.1: 16 random bytes, base64.
const KEY = /^[+/0-9A-Za-z]{21}[AQgw]==$/;
const OWN_PAGES = originPolicy([], { loopback: false });

/**
 * Accepts WebSocket connections to endpoints of kind `websocket` (the `ws` package, without its own
 * server: upgrades come through the endpoint server, ../../server/upgrade.ts). Every refusal is a JSON
 * answer before the handshake; a message past maxMessageBytes closes with 1009 (ws's maxPayload).
 */
export function createSockets(options: SocketOptions) {
  const { connections, log } = options;
  const { limits } = connections;
  // Made with the first handshake: a server without WebSocket endpoints never loads `ws` (bench/README.md,
  // start-up). No compression: a small deflated frame could inflate to many times the message limit's work.
  let wss: WebSocketServer | undefined;
  const server = () => {
    const { WebSocketServer: Server } = createRequire(import.meta.url)('ws') as typeof import('ws');
    return new Server({ noServer: true, maxPayload: limits.maxMessageBytes, clientTracking: false, perMessageDeflate: false });
  };
  const compiled = new WeakMap<Endpoint, CompiledSocket>();

  return function accept(req: IncomingMessage, res: ServerResponse, endpoint: Endpoint, params: Record<string, string>): void {
    const { name, socket: script } = endpoint.record;
    if (!isUpgrade(req) || req.headers.upgrade?.toLowerCase() !== 'websocket') {
      const message = `endpoint '${name}' is a WebSocket endpoint: connect with a WebSocket client`;
      return options.refuse(res, 426, message, { Upgrade: 'websocket' });
    }
    if (req.method !== 'GET') return options.refuse(res, 405, 'a WebSocket handshake is a GET', { Allow: 'GET' });
    const version = req.headers['sec-websocket-version'];
    if (!KEY.test(req.headers['sec-websocket-key'] ?? '') || (version !== '13' && version !== '8')) {
      return options.refuse(res, 400, 'a WebSocket handshake needs Sec-WebSocket-Key and Sec-WebSocket-Version: 13', { 'Sec-WebSocket-Version': '13' });
    }
    const origin = req.headers.origin;
    if (!options.cors && origin !== undefined && !allows(OWN_PAGES, origin, 'http', req.headers.host ?? '')) {
      return options.refuse(res, 403, `pages of ${origin} may not connect: the server runs with --no-cors, which allows its own pages only`);
    }
    const ip = clientIp(req, options.trustProxy) ?? '';
    const refusal = connections.refusal(name, ip);
    if (refusal) return options.refuse(res, 503, refusal, { 'Retry-After': '5' });
    let ready = compiled.get(endpoint);
    if (!ready) compiled.set(endpoint, (ready = compileSocket(script!)));
    const { socket, head } = takeUpgrade(req, res)!;
    const base = requestInput(req, params, '');
    (wss ??= server()).handleUpgrade(req, socket, head, (ws) => opened(ws, socket, req, endpoint, ip, ready, base));
  };

  function opened(
    ws: WebSocket,
    socket: Duplex,
    req: IncomingMessage,
    endpoint: Endpoint,
    ip: string,
    ready: CompiledSocket,
    base: ReturnType<typeof requestInput>,
  ): void {
    const id = connections.number();
    const from = logSource(req, options.trustProxy);
    const close = (code: number, reason: string) => ws.close(code, reason);
    // What this client is behind by, charged to the streams account until its socket drains (as event streams are).
    let held = 0;
    const settle = () => {
      options.account?.release(held);
      held = 0;
    };
    socket.on('drain', settle);
    /** False when nothing was sent. */
    const push = (data: string | Buffer): boolean => {
      if (ws.readyState !== ws.OPEN) return false;
      ws.send(data);
      const behind = ws.bufferedAmount;
      // A client that never reads is dropped rather than buffered for without end: a broadcast to a
      // thousand such sockets would otherwise hold a thousand copies.
      if (behind > limits.maxBuffered) return ws.terminate(), false;
      options.account?.charge(behind - held);
      held = behind;
      if (options.account?.over) return ws.terminate(), false;
      return true;
    };
    const send = (data: string | Buffer) => {
      if (!options.current(endpoint)) return close(1012, 'the endpoint changed');
      if (push(data)) log(endpoint, from, { connection: id, event: 'out' }, data.toString());
    };
    const connection: Connection = { id, endpoint, ip, since: isoNow(), send: push, end: close };
    connections.add(connection);
    endpoint.stats.hits++;
    log(endpoint, from, { connection: id, event: 'open' }, '', 101);
    const script = runSocketScript(ready, base, { send, close }, options.maxRequestCpu);
    let second = 0;
    let count = 0;
    ws.on('message', (data: Buffer, binary) => {
      const now = Math.floor(Date.now() / 1000);
      if (now !== second) [second, count] = [now, 0];
      if (++count > limits.maxMessagesPerSecond) {
        return close(1008, `more than ${limits.maxMessagesPerSecond} messages a second`);
      }
      log(endpoint, from, { connection: id, event: 'in' }, data.toString());
      script.message(data, binary);
    });
    // ws reports a protocol error or an oversized message here, then closes (1002, 1009).
    ws.on('error', () => {});
    ws.on('close', (code) => {
      settle();
      script.stop();
      connections.remove(connection);
      log(endpoint, from, { connection: id, event: 'close', code });
    });
  }
}
