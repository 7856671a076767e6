import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { OFFLINE_MESSAGE } from '../../../src/bins/compile/offline.js';

// The built module, as the compile children load it.
const OFFLINE = fileURLToPath(new URL('../../../dist/bins/compile/offline.js', import.meta.url));

/** Every way out a compiler could take, each awaited, run in a child process; prints what each gave. */
const ATTEMPTS = `
import dgram from 'node:dgram';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
const [port, cut] = process.argv.slice(1);
if (cut === 'cut') (await import(process.env.OFFLINE)).cutNetwork();
const url = 'http://127.0.0.1:' + port + '/';
const connected = (socket) => new Promise((resolve, reject) => socket.on('connect', resolve).on('error', reject));
const answered = (req) => new Promise((resolve, reject) => req.on('response', resolve).on('error', reject).end());
const attempts = {
  fetch: () => fetch(url),
  httpGet: () => answered(http.request(url)),
  httpsGet: () => answered(https.request('https://127.0.0.1:' + port + '/', { rejectUnauthorized: false })),
  netConnect: () => connected(net.connect(Number(port), '127.0.0.1')),
  socketConnect: () => connected(new net.Socket().connect(Number(port), '127.0.0.1')),
  tlsConnect: () => connected(tls.connect(Number(port), '127.0.0.1', { rejectUnauthorized: false })),
  dnsLookup: () => dns.promises.lookup('localhost'),
  dnsResolve: () => new dns.promises.Resolver().resolve4('localhost'),
  udp: () => new Promise((resolve, reject) => {
    dgram.createSocket('udp4').send('x', Number(port), '127.0.0.1', (e) => (e ? reject(e) : resolve()));
  }),
};
const results = {};
for (const [name, attempt] of Object.entries(attempts)) {
  try {
    await Promise.race([attempt(), new Promise((resolve) => setTimeout(resolve, 2000))]);
    results[name] = 'went out';
  } catch (err) {
    results[name] = err.message;
  }
}
console.log(JSON.stringify(results));
process.exit(0);
`;

function attempt(port: number, cut: boolean): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const args = ['--input-type=module', '-e', ATTEMPTS, String(port), cut ? 'cut' : 'open'];
    execFile(process.execPath, args, { env: { OFFLINE }, timeout: 30_000 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout) as Record<string, string>);
    });
  });
}

describe('compile children offline (cutNetwork)', function () {
  this.timeout(60_000);
  let tcp: Server;
  let udp: UdpSocket;
  let seen = 0;
  let onSeen = (): void => {};
  const count = (): void => {
    seen++;
    onSeen();
  };
  let port: number;
  before(async () => {
    tcp = createServer((socket) => {
      count();
      socket.destroy();
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    port = (tcp.address() as { port: number }).port;
    udp = createSocket('udp4').on('message', count);
    await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));
  });
  after(() => {
    tcp.close();
    udp.close();
  });

  it('makes every way out fail with one message, and nothing reaches a listening socket', async () => {
    const results = await attempt(port, true);
    expect(Object.values(results)).to.have.length(9);
    for (const [name, result] of Object.entries(results)) expect([name, result]).to.deep.equal([name, OFFLINE_MESSAGE]);
    expect(seen).to.equal(0);
  });

  it('is what stops them: without it the same attempts reach the socket', async () => {
    const results = await attempt(port, false);
    expect(Object.values(results)).to.not.include(OFFLINE_MESSAGE);
    // Six TCP connections (fetch, http, https, net twice, tls) and a datagram, seen as they arrive.
    await new Promise<void>((resolve) => {
      onSeen = () => seen >= 7 && resolve();
      onSeen();
    });
  });
});
