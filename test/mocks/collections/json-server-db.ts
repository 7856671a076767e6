/**
 * json-server's README database (posts, comments, profile) grown so that its query examples
 * (filters, pages, sorts, slices, operators, full text) have something to tell apart.
 */
export function jsonServerDb() {
  const posts: Record<string, unknown>[] = [
    { id: 1, title: 'json-server', author: 'typicode', views: 10, user: 'b' },
    { id: 2, title: 'json-server', author: 'someone', views: 20, user: 'a' },
    { id: 3, title: 'hello internet', author: 'typicode', views: 15, user: 'a' },
  ];
  for (let id = 4; id <= 30; id++) {
    posts.push({ id, title: `post ${id}`, author: 'someone', views: 100 + id, user: 'c' });
  }
  return {
    posts,
    comments: [
      { id: 1, body: 'some comment', postId: 1, author: { name: 'typicode' }, votes: 3 },
      { id: 2, body: 'Internet comment', postId: 1, author: { name: 'other' }, votes: 1 },
      { id: 3, body: 'another', postId: 2, author: { name: 'typicode' }, votes: 2 },
    ],
    profile: { name: 'typicode' },
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * json-server's README query examples on that database: [request path, ids answered, X-Total-Count, Link rels].
 * Nested routes (`/posts/1/comments`) are not served; their queries are asked of `/comments` instead.
 */
export const QUERY_CASES: [string, number[], number | null, string[]][] = [
  ['posts?title=json-server&author=typicode', [1], null, []],
  ['posts?id=1&id=2', [1, 2], null, []],
  ['comments?author.name=typicode', [1, 3], null, []],
  ['posts?_page=2', range(11, 20), 30, ['first', 'prev', 'next', 'last']],
  ['posts?_page=7&_limit=2', [13, 14], 30, ['first', 'prev', 'next', 'last']],
  ['posts?_page=7', [], 30, []],
  ['posts?_page=2&_per_page=5', range(6, 10), 30, ['first', 'prev', 'next', 'last']],
  ['posts?_sort=views&_order=asc&_limit=3', [1, 3, 2], 30, []],
  ['posts?_sort=views&_order=desc&_end=2', [30, 29], 30, []],
  ['posts?_sort=user,views&_order=asc,desc&_end=4', [2, 3, 1, 30], 30, []],
  ['comments?postId=1&_sort=votes&_order=asc', [2, 1], null, []],
  ['posts?_start=20&_end=23', [21, 22, 23], 30, []],
  ['posts?_start=20&_limit=2', [21, 22], 30, []],
  ['posts?views_gte=10&views_lte=20', [1, 2, 3], null, []],
  ['posts?id_ne=1&_end=2', [2, 3], 29, []],
  ['posts?title_like=server', [1, 2], null, []],
  ['posts?title_like=^HELLO', [3], null, []],
  ['posts?q=internet', [3], null, []],
  ['comments?q=internet', [2], null, []],
];
