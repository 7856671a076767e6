import { expect } from 'chai';
import { readBinChange } from '../../src/bins/engines/changes.js';
import type { Change } from '../../src/bins/engines/engine.js';
import { readMockChange } from '../../src/mocks/engines/changes.js';
import { changeFeed, changeNotice, openEngineFeeds, type Feeds } from '../../src/store/change-feed.js';

/** A feed whose changes and states are recorded in `heard`. */
function heardFeed<C>(feed: ReturnType<typeof changeFeed<C>>['feed']): unknown[] {
  const heard: unknown[] = [];
  feed.subscribe((change) => heard.push(change), (listening) => heard.push(listening));
  return heard;
}

const quietFeeds = (closed: string[]): Feeds<Change> => ({
  changes: { subscribe() {} },
  relay: { publish() {}, subscribe() {} },
  close: async () => void closed.push('feeds'),
});

describe('change feed', () => {
  it('hands on the change another instance\'s notice names, as its reader reads it', () => {
    const bins = changeFeed('me', readBinChange);
    const mocks = changeFeed('me', readMockChange);
    const [binsHeard, mocksHeard] = [heardFeed(bins.feed), heardFeed(mocks.feed)];
    bins.onPayload(changeNotice('other', { bin: 'abc', rev: 2 }));
    bins.onPayload(changeNotice('other', { template: true }));
    mocks.onPayload(changeNotice('other', { collection: 'stock' }));
    expect(binsHeard).to.deep.equal([{ bin: 'abc', rev: 2 }, { template: true }]);
    expect(mocksHeard).to.deep.equal([{ collection: 'stock' }]);
  });

  it('skips its own notices and payloads that are not notices of a change', () => {
    const bins = changeFeed('me', readBinChange);
    const heard = heardFeed(bins.feed);
    for (const payload of [
      changeNotice('me', { bin: 'abc' }),
      'not json',
      'null',
      JSON.stringify({ bin: 'abc' }),
      JSON.stringify({ from: 'other', change: { bin: 'abc' } }),
      changeNotice('other', { endpoint: 'hook' }),
    ]) {
      bins.onPayload(payload);
    }
    expect(heard).to.deep.equal([]);
  });

  it('tells a subscriber that comes while the channel is down so at once, then when it listens again', () => {
    const bins = changeFeed('me', readBinChange);
    bins.onState(false);
    const heard = heardFeed(bins.feed);
    bins.onState(true);
    expect(heard).to.deep.equal([false, true]);
  });
});

describe('engine feeds', () => {
  it('closes the store when the feeds cannot open, and rejects as they did', async () => {
    const closed: string[] = [];
    const failure = new Error('no listener');
    const caught = await openEngineFeeds<Change>(
      async () => void closed.push('store'),
      async () => {
        throw failure;
      },
    ).catch((err: unknown) => err);
    expect(caught).to.equal(failure);
    expect(closed).to.deep.equal(['store']);
  });

  it('makes notices as the id it opened the feeds with, and closes the feeds before the store', async () => {
    const closed: string[] = [];
    let opened = '';
    const feeds = await openEngineFeeds<Change>(
      async () => void closed.push('store'),
      async (self) => {
        opened = self;
        return quietFeeds(closed);
      },
    );
    expect(JSON.parse(feeds.notice({ bin: 'abc' }))).to.deep.equal({ from: opened, bin: 'abc' });
    await feeds.close();
    expect(closed).to.deep.equal(['feeds', 'store']);
  });
});
