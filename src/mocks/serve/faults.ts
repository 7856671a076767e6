import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Fault } from '../record/record.js';
import { HELD_CONNECTION_BYTES, type MemoryAccount } from '../../gates/memory-budget.js';

/**
 * Requests hanging now, and how many may at once: each holds a socket until its client leaves,
 * charged to the accountant's `connections` account when there is one.
 */
export type Hangs = { open: number; readonly max: number; readonly account?: MemoryAccount };

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
    case 'hang': {
      // Past the cap, or the memory budget, a hang closes like `empty`: one client must not hold
      // every socket the process may open, nor the memory they take.
      const cost = heldCost(req);
      if (hangs.open >= hangs.max || !(hangs.account?.tryCharge(cost) ?? true)) {
        socket.end(() => socket.destroy());
        return;
      }
      // Nothing at all: the socket, the request and the response go when the client leaves (or at shutdown).
      hangs.open++;
      socket.once('close', () => {
        hangs.open--;
        hangs.account?.release(cost);
      });
      return;
    }
  }
}

/** What a held request costs: the measured connection, and its header text once more (the parsed headers). */
function heldCost(req: IncomingMessage): number {
  let text = 0;
  for (const part of req.rawHeaders) text += part.length + 2;
  return HELD_CONNECTION_BYTES + Math.ceil(1.1 * text) + (req.url?.length ?? 0);
}
