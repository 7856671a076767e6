import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived capabilities to call the mock endpoints of a `--private-mocks` joint server (docs/serve.md,
 * "Private mocks"): a bin's output page is sandboxed, so its calls to `/endpoint/…` carry no cookie; the
 * page its reader was allowed to read carries a token for its own claim (`bin/rev`, the
 * X-Snippetkit-Bin header, src/shared/bin-claim.ts) instead. An HMAC-SHA256 over the claim and the
 * expiry, with a secret made at start and kept in memory only: a restart ends every token.
 */
export type MockTokens = {
  /** A token for `claim`, valid until the end of the hour LIFETIME from now. */
  mint(claim: string, now?: number): string;
  /** True when `token` was minted here for exactly `claim` and has not expired. */
  valid(token: unknown, claim: unknown, now?: number): boolean;
};

const HOUR = 60 * 60 * 1000;
/**
 * How long a page left open keeps calling its endpoints: a working day. Rounded up to the hour, so one
 * bin's page is the same for every reader within an hour and can be kept rendered (bins/pages/).
 */
export const MOCK_TOKEN_HOURS = 12;

// `<expiry in seconds>.<43 base64url characters>` (32 bytes): anything else is not even hashed.
const SHAPE = /^([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;

export function createMockTokens(secret: Buffer = randomBytes(32)): MockTokens {
  const sign = (claim: string, expiry: string) => createHmac('sha256', secret).update(`mock-token\n${claim}\n${expiry}`).digest();
  return {
    mint(claim, now = Date.now()) {
      const expiry = String(Math.ceil((now + MOCK_TOKEN_HOURS * HOUR) / HOUR) * (HOUR / 1000));
      return `${expiry}.${sign(claim, expiry).toString('base64url')}`;
    },
    valid(token, claim, now = Date.now()) {
      if (typeof token !== 'string' || typeof claim !== 'string') return false;
      const parts = SHAPE.exec(token);
      if (!parts || Number(parts[1]) * 1000 <= now) return false;
      // The text compared, not its decoding: the last of 43 characters has spare bits, so several texts
      // decode alike, and a token must be exactly the one minted. Both are 43 ASCII characters.
      const expected = sign(claim, parts[1]!).toString('base64url');
      return timingSafeEqual(Buffer.from(parts[2]!), Buffer.from(expected));
    },
  };
}
