import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** What a WebSocket server needs of an upgrade request besides the request: its socket and the bytes read past its head. */
export type Upgrade = { socket: Duplex; head: Buffer };

const upgrades = new WeakMap<IncomingMessage, Upgrade>();

/**
 * The 'upgrade' listener that sends an upgrade request through `handler` like any other request, on a
 * response written to its socket: so the Host check, the private-mocks gate, routing and every refusal
 * are the ones HTTP has. Whoever switches protocols takes the socket with takeUpgrade(); any other
 * answer ends the connection once written, and one that never comes within `timeoutMs` drops it.
 * `open` holds the sockets until they close.
 */
export function upgradeThrough(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  timeoutMs: number,
  open: Set<Duplex>,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    upgrades.set(req, { socket, head });
    // The server's close() destroys what is still open after its grace: Node's closeAllConnections() no longer knows these.
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    // Node's request timeouts no longer watch a socket handed to 'upgrade'.
    (socket as Socket).setTimeout(timeoutMs, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    res.once('finish', () => socket.end());
    handler(req, res);
  };
}

/** The socket of an upgrade request, taken from its HTTP response (which must not be used after); undefined for a plain request. */
export function takeUpgrade(req: IncomingMessage, res: ServerResponse): Upgrade | undefined {
  const upgrade = upgrades.get(req);
  if (!upgrade) return undefined;
  upgrades.delete(req);
  res.detachSocket(upgrade.socket as Socket);
  (upgrade.socket as Socket).setTimeout(0);
  return upgrade;
}

/** Whether `req` came through upgradeThrough and its socket is still untaken. */
export function isUpgrade(req: IncomingMessage): boolean {
  return upgrades.has(req);
}
