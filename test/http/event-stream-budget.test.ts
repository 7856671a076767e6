import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createEventStreams } from '../../src/http/event-stream.js';
import { MemoryAccount } from '../../src/gates/memory-budget.js';

/** A response whose client never reads: everything written stays buffered until drain(). */
class StalledResponse extends EventEmitter {
  writableLength = 0;
  writableEnded = false;
  destroyed = false;
  writeHead() {}
  write(chunk: Buffer) {
    this.writableLength += chunk.length;
    return false;
  }
  drain() {
    this.writableLength = 0;
    this.emit('drain');
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
  end() {
    this.writableEnded = true;
    this.emit('close');
  }
}

const request = { method: 'GET', socket: { setTimeout() {} } } as unknown as IncomingMessage;
const limits = { keepAliveMs: 60_000, retryMs: 1000, maxPerTopic: 100, maxPerAddress: 100, maxTotal: 100, maxBuffered: 1024 * 1024 };

describe('hostile: event streams hold what stalled readers fell behind by within one budget', () => {
  it('drops a reader whose write takes all readers past the account, and gives its bytes back', () => {
    const account = new MemoryAccount('streams', 100 * 1024);
    const streams = createEventStreams({ ...limits, account });
    const readers = Array.from({ length: 10 }, () => new StalledResponse());
    readers.forEach((res, i) => streams.open(request, res as unknown as ServerResponse, 'topic', `10.0.0.${i}`));
    try {
      // Each reader may fall 1 MiB behind, ten of them 10 MiB: the account allows 100 KiB in all.
      for (let i = 0; i < 20; i++) streams.send('topic', 'request', 'x'.repeat(4096));
      expect(account.used).to.be.at.most(account.limit);
      const dropped = readers.filter((res) => res.destroyed).length;
      expect(dropped).to.be.within(5, 9);
      expect(streams.size).to.equal(10 - dropped);
      for (const res of readers) if (!res.destroyed) res.drain();
      expect(account.used).to.equal(0);
    } finally {
      streams.close();
    }
  });
});
