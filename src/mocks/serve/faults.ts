import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Fault } from '../record/record.js';

/** Requests hanging now, and how many may at once: each holds a socket until its client leaves. */
export type Hangs = { open: number; readonly max: number };

/**
 * Breaks the connection the way `fault` says, with no HTTP answer (docs/mock-api.md, "Faults").
 * Called once the request body has been read, so closing sends a clean FIN rather than a reset.
 */
export function breakConnection(fault: Fault, req: IncomingMessage, hangs: Hangs): void {
  const socket = req.socket;
  switch (fault) {
    case 'reset':
      socket.resetAndDestroy();
      return;
    case 'empty':
      socket.end(() => socket.destroy());
      return;
    case 'malformed': {
      const bytes = randomBytes(16 + (randomBytes(1)[0]! % 241));
      // Never by chance the start of a status line.
      if (bytes[0] === 0x48) bytes[0] = 0;
      socket.end(bytes, () => socket.destroy());
      return;
    }
    case 'hang':
      // Past the cap a hang closes like `empty`: one client must not hold every socket the process may open.
      if (hangs.open >= hangs.max) {
        socket.end(() => socket.destroy());
        return;
      }
      // Nothing at all: the socket, the request and the response go when the client leaves (or at shutdown).
      hangs.open++;
      socket.once('close', () => hangs.open--);
      return;
  }
}
