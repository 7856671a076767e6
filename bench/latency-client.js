// Latency of one request at a time, in microseconds. autocannon reports whole milliseconds under 100
// connections of load, which hides a lookup's cost; here a raw keep-alive socket sends one GET, waits
// for the last body byte, and sends the next, timed with process.hrtime.bigint.
import { once } from 'node:events';
import { connect } from 'node:net';
import { median, ROUNDS } from './rounds.js';

/** Requests per block: the two URLs of a round take turns by blocks, so drift hits both. */
const BLOCK = 500;

/** A keep-alive connection to `url` that times sequential GETs of it. Answers need a Content-Length. */
async function openClient(url) {
  const { hostname, port, pathname, search } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.setNoDelay(true);
  const request = Buffer.from(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
  let received = Buffer.alloc(0);
  let pending; // { resolve, reject } of the request in flight
  const fail = (err) => pending?.reject(err);
  socket.on('error', fail);
  socket.on('close', () => fail(new Error(`${url}: connection closed`)));
  socket.on('data', (chunk) => {
    received = received.length ? Buffer.concat([received, chunk]) : chunk;
    const end = received.indexOf('\r\n\r\n');
    if (end === -1) return;
    const head = received.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1]);
    if (Number.isNaN(length)) return fail(new Error(`${url}: an answer without Content-Length`));
    if (received.length < end + 4 + length) return;
    received = Buffer.alloc(0);
    const status = Number(head.slice(9, 12));
    if (status === 200) pending.resolve();
    else fail(new Error(`${url}: ${status}`));
  });
  return {
    /** Times `count` GETs, one after another; pushes each one's µs onto `times`. */
    async time(count, times) {
      for (let i = 0; i < count; i++) {
        const start = process.hrtime.bigint();
        await new Promise((resolve, reject) => {
          pending = { resolve, reject };
          socket.write(request);
        });
        times.push(Number(process.hrtime.bigint() - start) / 1000);
      }
      pending = undefined;
    },
    close: () => socket.destroy(),
  };
}

/**
 * Rows for `versusBase`: in each of `rounds`, `count` sequential GETs of each of `targets.subject` and
 * `targets.base` in blocks taking turns (who goes first alternates); each side's p50 in µs per round.
 */
export async function pairedP50s(targets, count, rounds = ROUNDS) {
  const sides = ['subject', 'base'];
  const clients = await Promise.all(sides.map((side) => openClient(targets[side])));
  try {
    const runs = { subject: [], base: [] };
    for (let round = 0; round < rounds; round++) {
      const times = { subject: [], base: [] };
      for (let block = 0; block * BLOCK < count; block++) {
        const n = Math.min(BLOCK, count - block * BLOCK);
        for (const i of block % 2 ? [1, 0] : [0, 1]) await clients[i].time(n, times[sides[i]]);
      }
      for (const side of sides) runs[side].push({ p50Us: median(times[side]) });
    }
    return runs;
  } finally {
    for (const client of clients) client.close();
  }
}
