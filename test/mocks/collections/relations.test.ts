import { expect } from 'chai';
import { orphans, plural, singular } from '../../../src/mocks/collections/relations.js';
import { startDbServer } from './plural-db.js';

// json-server 0.17.4's `__tests__/server/mixins.js` (getRemovable), restated, and the names it links by.
describe('collections: relations between collections', () => {
  const db = () => ({
    posts: [{ id: 1, comment: 1 }],
    comments: [
      { id: 1, postId: 1 },
      // These name a post that is not there.
      { id: 2, postId: 2 },
      { id: 3, postId: 2 },
    ],
    photos: [{ id: '1' }, { id: '2' }],
  });

  it('finds the items naming an item that is not there (getRemovable)', () => {
    expect(orphans(new Map(Object.entries(db())))).to.deep.equal(new Map([['comments', new Set(['2', '3'])]]));
  });

  it('keeps an item whose reference is null: it names nothing (json-server 0.17 fails there)', () => {
    const state = new Map(Object.entries({ posts: [{ id: 1 }], comments: [{ id: 1, postId: null }] }));
    expect(orphans(state)).to.deep.equal(new Map());
  });

  it('matches ids as text, and passes over a key whose collection is not there', () => {
    const state = new Map(Object.entries({ posts: [{ id: '1' }], comments: [{ id: 1, postId: 1, userId: 9 }] }));
    expect(orphans(state)).to.deep.equal(new Map());
  });

  const NAMES: [string, string][] = [
    ['post', 'posts'], ['category', 'categories'], ['box', 'boxes'], ['match', 'matches'], ['key', 'keys'],
    ['address', 'addresses'], ['movie', 'movies'], ['cookie', 'cookies'], ['house', 'houses'], ['course', 'courses'],
    ['response', 'responses'], ['status', 'statuses'], ['person', 'people'], ['child', 'children'], ['series', 'series'],
    ['city', 'cities'], ['company', 'companies'], ['user', 'users'], ['case', 'cases'], ['phase', 'phases'],
    ['license', 'licenses'], ['exercise', 'exercises'], ['purchase', 'purchases'], ['size', 'sizes'], ['day', 'days'], ['userMovie', 'userMovies'], ['party', 'parties'],
  ];
  for (const [one, many] of NAMES) {
    it(`links ${one} and ${many}`, () => {
      expect(plural(one)).to.equal(many);
      expect(singular(many)).to.equal(one);
    });
  }

  it('DELETE removes the items naming any missing item, those from before too, as json-server does', async () => {
    const running = await startDbServer(JSON.stringify(db()));
    try {
      const res = await running.server.fetch('/endpoint/photos/1', { method: 'DELETE' });
      expect(res.status).to.equal(200);
      expect(await (await running.server.fetch('/endpoint/comments')).json()).to.deep.equal([{ id: 1, postId: 1 }]);
      expect(await (await running.server.fetch('/endpoint/photos')).json()).to.deep.equal([{ id: '2' }]);
    } finally {
      await running.close();
    }
  });
});
