import { expect } from 'chai';
import { createRequire } from 'node:module';

// scripts/bundle/mime-types.cjs, which the CLI bundle uses for mime-types: what it answers without the
// table must be what mime-types answers.
const require = createRequire(import.meta.url);
type MimeTypes = { contentType(str: string): string | false };
const shim = require('../../scripts/bundle/mime-types.cjs') as MimeTypes & { COMMON: Record<string, string> };
const real = require('mime-types') as MimeTypes;

describe("the CLI bundle's mime-types", () => {
  it('answers each common type, by name and by extension, as mime-types does', () => {
    const names = Object.keys(shim.COMMON);
    expect(names).to.include.members(['html', 'js', 'css', 'json']);
    for (const name of names) {
      for (const asked of [name, `.${name}`]) expect(shim.contentType(asked), asked).to.equal(real.contentType(asked));
    }
  });

  it('hands everything else to mime-types itself', () => {
    for (const asked of ['xml', '.csv', 'HTML', 'a.html', 'text/html', 'application/json; charset=utf-8', 'toString', '__proto__', 'nope']) {
      expect(shim.contentType(asked), asked).to.equal(real.contentType(asked));
    }
  });
});
