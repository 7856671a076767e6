import { expect } from 'chai';
import { MAX_VISITS, RouteTable, shapesOf } from '../../../src/mocks/store/route-table.js';

type Def = [key: string, pattern: string, methods?: string[]];

/** A table of `defs` (added in order, so earlier ones are older); values are the keys. */
function table(defs: Def[]): RouteTable<string> {
  const routes = new RouteTable<string>();
  for (const [key, pattern, methods] of defs) routes.set(key, pattern, methods, key);
  return routes;
}

// [title, method, path, expected: key and params, { allow } for a 405, or undefined for a 404]
type Case = [string, string, string, [string, Record<string, string>] | { allow: string[] } | undefined];

function check(routes: RouteTable<string>, cases: Case[]): void {
  for (const [title, method, path, expected] of cases) {
    it(title, () => {
      const found = routes.find(method, path);
      if (expected === undefined || 'allow' in expected) expect(found).to.deep.equal(expected);
      else expect(found && 'value' in found ? [found.value, { ...found.params }] : found).to.deep.equal(expected);
    });
  }
}

const ALL = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT'];

describe('route table', () => {
  describe('precedence: static, then parameter, then wildcard, per segment', () => {
    const routes = table([
      ['any', 'users/*'],
      ['one', 'users/:id'],
      ['me', 'users/me'],
      ['posts', 'users/:id/posts'],
      ['mine', 'users/me/*'],
      ['plain', 'users'],
    ]);
    check(routes, [
      ['a static segment beats a parameter', 'GET', 'users/me', ['me', {}]],
      ['a parameter takes any other segment', 'GET', 'users/42', ['one', { id: '42' }]],
      ['a deeper static route after a parameter', 'GET', 'users/42/posts', ['posts', { id: '42' }]],
      ['backtracks from a static segment to a parameter', 'GET', 'users/me/posts', ['mine', { '*': 'posts' }]],
      ['a wildcard takes the rest of the path', 'GET', 'users/42/a/b', ['any', { '*': '42/a/b' }]],
      ['the plain name is a one-segment static route', 'GET', 'users', ['plain', {}]],
      ['a wildcard may take an empty rest', 'GET', 'users/me/', ['me', {}]],
      ['nothing under an unknown first segment', 'GET', 'teams/1', undefined],
    ]);
  });

  describe('paths as sent', () => {
    const routes = table([
      ['one', 'users/:id'],
      ['plain', 'users'],
    ]);
    check(routes, [
      ['one trailing slash is ignored', 'GET', 'users/', ['plain', {}]],
      ['two trailing slashes are not', 'GET', 'users//', undefined],
      ['segments are percent-decoded after splitting', 'GET', 'users/a%2Fb', ['one', { id: 'a/b' }]],
      ['a static segment may be percent-encoded', 'GET', '%75sers', ['plain', {}]],
      ['a broken escape matches nothing', 'GET', 'users/%zz', undefined],
      ['matching is case-sensitive', 'GET', 'Users', undefined],
      ['an empty segment is no parameter', 'GET', 'users//x', undefined],
    ]);
  });

  describe('optional segments and wildcards', () => {
    const routes = table([
      ['opt', 'files/:dir/:name?'],
      ['rest', 'static/*'],
      ['root', 'a/:b/*'],
    ]);
    check(routes, [
      ['an optional segment given', 'GET', 'files/x/y', ['opt', { dir: 'x', name: 'y' }]],
      ['an optional segment left out', 'GET', 'files/x', ['opt', { dir: 'x' }]],
      ['a required segment left out', 'GET', 'files', undefined],
      ['a wildcard with an empty rest', 'GET', 'static', ['rest', { '*': '' }]],
      ['a wildcard with decoded segments', 'GET', 'static/a%20b/c', ['rest', { '*': 'a b/c' }]],
      ['a parameter before a wildcard', 'GET', 'a/1/x/y', ['root', { b: '1', '*': 'x/y' }]],
    ]);
  });

  describe('methods', () => {
    const routes = table([
      ['get', 'users/:id', ['GET']],
      ['put', 'users/:uid', ['PUT', 'PATCH']],
      ['me', 'users/me', ['POST']],
      ['catch', 'users/:id/*', ['DELETE']],
    ]);
    check(routes, [
      ['the route that answers the method wins', 'PUT', 'users/1', ['put', { uid: '1' }]],
      ['GET routes answer HEAD', 'HEAD', 'users/1', ['get', { id: '1' }]],
      ['a static route that does not answer falls back to a parameter', 'GET', 'users/me', ['get', { id: 'me' }]],
      ['a wildcard answers what the exact path does not', 'DELETE', 'users/1', ['catch', { id: '1', '*': '' }]],
      ['405 with the union of the matching routes', 'POST', 'users/1', { allow: [...ALL.filter((m) => m !== 'POST')] }],
      ['405 counts static, parameter and wildcard routes', 'OPTIONS', 'users/me', { allow: ALL }],
    ]);
  });

  describe('ties', () => {
    const routes = table([
      ['old', 'x/:a', ['GET']],
      ['young', 'x/:b', ['GET', 'POST']],
    ]);
    check(routes, [
      ['the older route wins', 'GET', 'x/1', ['old', { a: '1' }]],
      ['the younger answers what the older does not', 'POST', 'x/1', ['young', { b: '1' }]],
    ]);
  });

  describe('conflicts', () => {
    const routes = table([
      ['user', 'users/:id', ['GET', 'PUT']],
      ['users', 'users'],
      ['files', 'files/*', ['GET']],
    ]);
    const cases: [string, string, string, string[] | undefined, string | undefined][] = [
      ['the same shape under other names', 'other', 'users/:uid', ['PUT'], 'user'],
      ['no method in common', 'other', 'users/:uid', ['POST'], undefined],
      ['GET and HEAD overlap', 'other', 'users/:uid', ['HEAD'], 'user'],
      ['every method overlaps any', 'other', 'users/:x', undefined, 'user'],
      ['an optional segment overlaps its shorter shape', 'other', 'users/:x?', ['DELETE'], 'users'],
      ['a route does not conflict with itself', 'user', 'users/:id', undefined, undefined],
      ['a wildcard shape', 'other', 'files/*', ['HEAD'], 'files'],
      ['a different shape', 'other', 'users/:id/x', undefined, undefined],
    ];
    for (const [title, key, pattern, methods, expected] of cases) {
      it(title, () => expect(routes.conflict(key, pattern, methods)).to.equal(expected));
    }
  });

  describe('add and remove', () => {
    it('removes a route and its optional shapes', () => {
      const routes = table([['a', 'p/:x?']]);
      routes.remove('a');
      expect(routes.find('GET', 'p')).to.equal(undefined);
      expect(routes.find('GET', 'p/1')).to.equal(undefined);
    });

    it('replacing a route drops its old path', () => {
      const routes = table([['a', 'old']]);
      routes.set('a', 'new/:x', undefined, 'a2');
      expect(routes.find('GET', 'old')).to.equal(undefined);
      expect(routes.find('GET', 'new/1')).to.deep.equal({ value: 'a2', params: { x: '1' } });
    });

    it('a replaced route keeps its age', () => {
      const routes = table([
        ['a', 'x/:p', ['GET']],
        ['b', 'x/:q', ['POST']],
      ]);
      routes.set('a', 'x/:p', ['GET', 'POST'], 'a');
      expect((routes.find('POST', 'x/1') as { value: string }).value).to.equal('a');
    });

    it('removing one of two routes on a static path keeps the other', () => {
      const routes = table([
        ['a', 'x', ['GET']],
        ['b', 'x', ['POST']],
      ]);
      routes.remove('a');
      expect(routes.find('GET', 'x')).to.deep.equal({ allow: ['POST'] });
      expect(routes.find('POST', 'x')).to.deep.equal({ value: 'b', params: {} });
    });
  });

  describe('a table built to be slow', () => {
    // Every mix of `a` and `:p` over 13 segments, ending in `z`: about 16,000 nodes that a path of
    // `a`s walks one by one before it reaches the root's wildcard, the last thing a lookup tries.
    const depth = 13;
    const slow = new RouteTable<string>();
    for (let mask = 0; mask < 2 ** depth; mask++) {
      const segments = Array.from({ length: depth }, (_, i) => ((mask >> i) & 1 ? ':p' : 'a'));
      // Named parameters must differ within one path.
      const pattern = [...segments.map((s, i) => (s === ':p' ? `:p${i}` : s)), 'z'].join('/');
      slow.set(`r${mask}`, pattern, undefined, `r${mask}`);
    }
    slow.set('rest', '*', undefined, 'rest');
    const as = Array.from({ length: depth }, () => 'a').join('/');

    it(`gives up after ${MAX_VISITS} nodes rather than walk the whole table`, () => {
      expect(slow.find('GET', `${as}/y`)).to.equal(undefined);
    });

    it('still finds what it reaches before the limit', () => {
      expect((slow.find('GET', `${as}/z`) as { value: string }).value).to.equal('r0');
      expect((slow.find('GET', 'b/c') as { value: string }).value).to.equal('rest');
    });
  });

  describe('patterns', () => {
    it('an optional segment gives two shapes', () => {
      expect(shapesOf('a/:b?').map((s) => s.segments.join('/'))).to.deep.equal(['a', 'a/:']);
    });

    for (const pattern of ['a/:b?/c', 'a/*/b', 'a/:b?/*']) {
      it(`refuses '${pattern}'`, () => expect(() => shapesOf(pattern)).to.throw());
    }
  });
});
