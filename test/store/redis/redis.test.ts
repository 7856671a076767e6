import { expect } from 'chai';
import { createClient } from '@redis/client';
import { openRedisClient, openRedisSubscriber, unavailableOnFailure, type RedisClient } from '../../../src/store/redis/client.js';
import { StoreUnavailable } from '../../../src/store/unavailable.js';
import { clientError } from '../../../src/http/errors.js';
import { startRedis, type RedisServer } from '../../helpers/services.js';

describe('Redis commands that get no answer', function () {
  this.timeout(30_000);
  let server: RedisServer;
  let client: RedisClient<{}>;
  before(async () => {
    server = await startRedis();
    client = await openRedisClient(server.url, {});
  });
  after(async () => {
    client.destroy();
    await server.remove();
  });

  /** Makes Redis hold every command for `ms` while keeping the connections open (CLIENT PAUSE). */
  async function pause(ms: number): Promise<void> {
    const admin = createClient({ url: server.url });
    await admin.connect();
    await admin.sendCommand(['CLIENT', 'PAUSE', String(ms), 'ALL']);
    admin.destroy();
  }

  it('fail as StoreUnavailable once the reply timeout passes, and the client works again when Redis answers', async () => {
    await client.set('paused', 'before');
    await pause(3_000);
    const started = Date.now();
    const failure = await unavailableOnFailure(() => client.get('paused'), 300).then(
      () => undefined,
      (err: unknown) => err,
    );
    const waited = Date.now() - started;
    expect(failure).to.be.instanceOf(StoreUnavailable);
    expect(clientError(failure)?.status).to.equal(503);
    expect(waited).to.be.at.least(290).and.below(2_500);
    // The held command is answered when the pause ends; the connection was never dropped.
    expect(await unavailableOnFailure(() => client.get('paused'))).to.equal('before');
  });

  it('on a subscribed connection, are found by the heartbeat: it is replaced by one that hears messages', async () => {
    const states: boolean[] = [];
    let stateChanged = () => {};
    const nextState = () => new Promise<void>((resolve) => (stateChanged = resolve));
    let heard = (_message: string) => {};
    const subscriber = await openRedisSubscriber(
      server.url,
      { beat: (message) => heard(message) },
      (listening) => {
        states.push(listening);
        stateChanged();
      },
      { everyMs: 100, timeoutMs: 500 },
    );
    try {
      let change = nextState();
      await pause(2_000);
      await change;
      expect(states).to.deep.equal([false]);
      change = nextState();
      await change; // subscribed again once Redis answers
      expect(states).to.deep.equal([false, true]);
      const message = new Promise<string>((resolve) => (heard = resolve));
      await client.publish('beat', 'after');
      expect(await message).to.equal('after');
    } finally {
      await subscriber.close();
    }
  });

  it('pass a command error through as it is', async () => {
    await client.set('text', 'x');
    const failure = await unavailableOnFailure(() => client.incr('text')).catch((err: unknown) => err);
    expect(failure).to.be.an('error').and.not.instanceOf(StoreUnavailable);
    expect((failure as Error).message).to.match(/not an integer/);
  });
});
