import type { ServerResponse } from 'node:http';
import type { Delay } from '../record/record.js';

/** Runs `act` after `ms` on a timer, never a wait; a client that leaves during the delay takes its timer with it. */
export function later(res: ServerResponse, ms: number, act: () => void): void {
  if (ms <= 0) return act();
  const timer = setTimeout(act, ms);
  res.once('close', () => clearTimeout(timer));
}

/** A fixed delay, or one drawn uniformly from its range. */
export function draw(delay: Delay): number {
  return typeof delay === 'number' ? delay : delay.min + Math.random() * (delay.max - delay.min);
}
