// mime-types as the CLI bundle sees it (scripts/build-cli.mjs aliases the package here): the same
// functions and tables, with the package and its mime-db (some 2,500 types, 26 ms to load and index) loaded
// at the first call that needs the table. Koa and type-is require mime-types as they load, which made
// every server start pay for a table only a file or a short type name ('html', 'png') needs.
'use strict';

// Left to Node at run time: esbuild bundles only a require of a literal, and bundled, the table would
// still be read and compiled at every start as part of Koa's chunk.
const PACKAGE = 'mime-types';
let real;
const load = () => (real ??= require(PACKAGE));

exports.charset = (type) => load().charset(type);
exports.charsets = { lookup: (type) => load().charset(type) };
/**
 * The types the servers' own pages and assets are sent as, by extension or short name, as mime-types
 * answers them (test/cli/bundle-mime-types.test.ts checks each against it): the first page a server
 * sends (the editor, the mock page's index.html) no longer loads the table, about 8 ms of a start.
 */
const COMMON = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/vnd.microsoft.icon',
};
exports.COMMON = COMMON;

// A full type that names its charset ('application/json; charset=utf-8') is answered as it is, as
// mime-types itself answers it, without the table: Koa passes every `ctx.type = …` through here.
exports.contentType = (str) => {
  if (typeof str === 'string') {
    if (str.includes('/') && str.includes('charset')) return str;
    const name = str.startsWith('.') ? str.slice(1) : str;
    if (Object.hasOwn(COMMON, name)) return COMMON[name];
  }
  return load().contentType(str);
};
exports.extension = (type) => load().extension(type);
exports.lookup = (path) => load().lookup(path);
for (const table of ['extensions', 'types', '_extensionConflicts']) {
  Object.defineProperty(exports, table, { enumerable: true, get: () => load()[table] });
}
