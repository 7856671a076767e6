import { expect } from 'chai';
import { binClaimScript, NEW_BIN_CLAIM, parseBinClaim, parseTokenClaim } from '../../src/shared/bin-claim.js';

const TOKEN = `1800000000.${'a'.repeat(43)}`;

describe('bin claims', () => {
  it('takes exactly a bin and revision as a claim that names a bin, and nothing else', () => {
    expect(parseBinClaim('fumugi/3')).to.equal('fumugi/3');
    for (const value of ['fumugi', 'fumugi/0', 'Fumugi/3', 'fumugi/3 ', ['fumugi/3', 'fumugi/3'], undefined, NEW_BIN_CLAIM]) {
      expect(parseBinClaim(value)).to.equal(undefined);
    }
  });

  it('takes a new bin as a claim a token may be made for, though it names no bin', () => {
    expect(parseTokenClaim(NEW_BIN_CLAIM)).to.equal(NEW_BIN_CLAIM);
    expect(parseTokenClaim('fumugi/3')).to.equal('fumugi/3');
    expect(parseTokenClaim('news')).to.equal(undefined);
  });

  it('adds nothing to a new bin’s calls without a token, so they cost no preflight', () => {
    expect(binClaimScript(NEW_BIN_CLAIM, '/endpoint/')).to.equal('');
    expect(binClaimScript(NEW_BIN_CLAIM, '/endpoint/', 'not a token')).to.equal('');
  });

  it('sends a new bin’s claim with its token, and a bin’s claim with or without one', () => {
    expect(binClaimScript(NEW_BIN_CLAIM, '/endpoint/', TOKEN)).to.include(JSON.stringify([['X-Snippetkit-Bin', 'new'], ['X-Snippetkit-Mock-Token', TOKEN]]));
    expect(binClaimScript('fumugi/3', '/endpoint/')).to.include(JSON.stringify([['X-Snippetkit-Bin', 'fumugi/3']]));
  });
});
