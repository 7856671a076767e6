/**
 * Cuts a compile child off the network before any compiler loads (imported first by worker.ts).
 * Node's permission model guards files and processes but not sockets, and LESS imports URLs, so every
 * way out fails here, in the child, whatever a compiler tries. TCP, TLS, HTTP(S), HTTP/2 and Node's own
 * fetch (undici) all end in net.Socket's connect, the one door; the others are shut for a clear error.
 * process.binding, which would reach the raw sockets, is refused by the permission model.
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

export const OFFLINE_MESSAGE = 'network access is not allowed while compiling';

function refuse(): never {
  throw new Error(OFFLINE_MESSAGE);
}
const REFUSED = { value: refuse, writable: false, configurable: false };

/** Replaces each named function of `target` that exists with one that throws. */
function shut(target: object, names: string[]): void {
  for (const name of names) {
    if (typeof (target as Record<string, unknown>)[name] === 'function') Object.defineProperty(target, name, REFUSED);
  }
}

/** Makes every network request in this process fail. Idempotent. */
export function cutNetwork(): void {
  shut(net.Socket.prototype, ['connect']);
  shut(net.Server.prototype, ['listen']);
  shut(net, ['connect', 'createConnection']);
  shut(tls, ['connect']);
  shut(http, ['request', 'get']);
  shut(https, ['request', 'get']);
  shut(dgram, ['createSocket']);
  shut(dgram.Socket.prototype, ['bind', 'send', 'connect']);
  for (const target of [dns, dns.promises, dns.Resolver.prototype, dns.promises.Resolver.prototype]) {
    shut(target, Object.getOwnPropertyNames(target).filter((name) => /^(lookup|resolve|reverse)/.test(name)));
  }
  for (const name of ['fetch', 'WebSocket', 'EventSource']) {
    if (name in globalThis) Object.defineProperty(globalThis, name, REFUSED);
  }
}
