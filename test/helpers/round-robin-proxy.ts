import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RoundRobinProxy = {
  url: string;
  /** Ends open connections (event streams included) and stops listening. */
  close(): Promise<void>;
};

/** How long an upstream connection may stay idle here (Node's own global agent keeps 5 s). */
const UPSTREAM_IDLE_MS = 5000;

/** The header naming the target (its index in `targets`) that answered through the proxy. */
export const INSTANCE_HEADER = 'x-instance';

// Per-connection headers: each hop has its own (RFC 9110 section 7.6.1).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A load balancer for tests: each request goes to the next of `targets` in turn, over keep-alive
 * connections, and the answer (event streams included) is piped back with INSTANCE_HEADER added.
 * A target that refuses the connection (a killed instance) is skipped for the next one, whatever
 * the method: nothing was sent, so nothing can have happened there. Any other failure (a reset
 * once the request went out) is a 502, never a retry, as a careful balancer does for requests
 * that are not idempotent. The request body is read first, so a skipped request is sent whole.
 */
export async function startRoundRobinProxy(targets: readonly string[]): Promise<RoundRobinProxy> {
  const upstreams = targets.map((target) => {
    const { hostname, port, host } = new URL(target);
    // The balancer, not the instance, must be the one to close an idle connection: one the
    // instance closes while a request is on its way (or while the balancer is too busy to have
    // read the FIN) resets that request, a 502. `timeout` closes our idle sockets, and only with
    // it set does Node's Agent honour the instance's "Keep-Alive: timeout=N" (it closes at N − 1 s
    // when that is sooner); without it, idle sockets were kept until the instance closed them.
    const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: UPSTREAM_IDLE_MS });
    return { hostname, port, host, agent };
  });
  let turn = 0;

  const server = createServer(async (req, res) => {
    const body = await readBody(req).catch(() => undefined);
    if (body === undefined) return res.destroy(); // the client went away mid-request
    const first = turn++ % upstreams.length;
    const fail = (status: number, error: string): void => {
      if (res.headersSent) res.destroy();
      else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
    };
    const attempt = (tried: number): void => {
      const index = (first + tried) % upstreams.length;
      const { hostname, port, host, agent } = upstreams[index]!;
      const headers = { ...endToEnd(req.headers), host, 'content-length': String(body.length) };
      const upstream = request({ hostname, port, agent, method: req.method, path: req.url, headers }, (answer) => {
        res.writeHead(answer.statusCode!, { ...endToEnd(answer.headers), [INSTANCE_HEADER]: String(index) });
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED' && tried + 1 < upstreams.length) attempt(tried + 1);
        else if (error.code === 'ECONNREFUSED') fail(502, 'every instance refused the connection');
        else fail(502, `instance ${index} failed: ${error.code ?? error.message}`);
      });
      // A client that leaves early (an event stream closed) ends the upstream request with it.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      upstream.end(body);
    };
    attempt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      for (const { agent } of upstreams) agent.destroy();
      await closed;
    },
  };
}
