import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PrefixProxy = { url: string; close(): void };

/**
 * A reverse proxy that mounts `target` under `prefix`, as nginx with a location block would:
 * the prefix is cut from each path, and answers (event streams included) are piped back as they come.
 */
export async function startPrefixProxy(target: string, prefix: string): Promise<PrefixProxy> {
  const { hostname, port } = new URL(target);
  const server: Server = createServer((req, res) => {
    if (!req.url?.startsWith(`${prefix}/`)) {
      res.writeHead(404).end();
      return;
    }
    const upstream = request(
      { hostname, port, method: req.method, path: req.url.slice(prefix.length), headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
