import { findMockServer } from './api.js';

const HOUR = 60 * 60 * 1000;
/** After a refusal (a browser not logged in), how long before asking again: not on every keystroke's preview. */
const REFUSED_FOR = 60 * 1000;

/**
 * Tokens for the preview's calls to private mocks (docs/serve.md, "Private mocks"). The preview is a
 * `srcdoc` frame at an opaque origin: its calls carry no cookie, and no output page stands behind it to
 * carry a token. So the editor asks the joint server (`GET /mocks/token?claim=`, with its own session
 * cookie), one token per claim, kept until an hour before it expires. undefined when the mocks are not
 * private or the token is refused: the calls then go without one, and are refused as they would be anyway.
 */
export function previewTokens(root: URL): (claim: string) => Promise<string | undefined> {
  const kept = new Map<string, { token: string | undefined; until: number }>();
  return async (claim) => {
    const where = (await findMockServer(root))?.tokens;
    if (!where) return undefined;
    const known = kept.get(claim);
    if (known && known.until > Date.now()) return known.token;
    let token: string | undefined;
    try {
      const res = await fetch(new URL(`?claim=${encodeURIComponent(claim)}`, where), { cache: 'no-store' });
      const answer = res.ok ? ((await res.json()) as { token?: unknown }) : {};
      if (typeof answer.token === 'string') token = answer.token;
    } catch {
      // unreachable: as refused
    }
    const expiry = token === undefined ? 0 : Number(token.split('.')[0]) * 1000;
    kept.set(claim, { token, until: token === undefined ? Date.now() + REFUSED_FOR : expiry - HOUR });
    return token;
  };
}
