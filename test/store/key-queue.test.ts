import { expect } from 'chai';
import { createKeyQueue } from '../../src/store/key-queue.js';

/** A promise with its resolve function, to hold a task open until the test lets it go. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('key queue', () => {
  it('runs tasks for one key one after another, in order', async () => {
    const queue = createKeyQueue();
    const events: string[] = [];
    const first = gate();
    const a = queue.run('k', async () => {
      events.push('a start');
      await first.opened;
      events.push('a end');
    });
    const b = queue.run('k', async () => {
      events.push('b');
    });
    await Promise.resolve();
    expect(events).to.deep.equal(['a start']);
    first.open();
    await Promise.all([a, b]);
    expect(events).to.deep.equal(['a start', 'a end', 'b']);
  });

  it('runs tasks for different keys side by side', async () => {
    const queue = createKeyQueue();
    const held = gate();
    const slow = queue.run('one', () => held.opened);
    expect(await queue.run('two', async () => 'done')).to.equal('done');
    held.open();
    await slow;
  });

  it('runs the next task after one that failed, and passes the failure to its caller', async () => {
    const queue = createKeyQueue();
    const failed = queue.run('k', async () => {
      throw new Error('boom');
    });
    const next = queue.run('k', async () => 2);
    let caught: unknown;
    await failed.catch((err: unknown) => (caught = err));
    expect((caught as Error).message).to.equal('boom');
    expect(await next).to.equal(2);
  });

  it('is busy for a key while work is pending and forgets the key once it drains', async () => {
    const queue = createKeyQueue();
    const held = gate();
    const task = queue.run('k', () => held.opened);
    expect(queue.busy('k')).to.equal(true);
    expect(queue.busy('other')).to.equal(false);
    held.open();
    await task;
    // The entry is removed one step after the task settles.
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.busy('k')).to.equal(false);
  });
});
