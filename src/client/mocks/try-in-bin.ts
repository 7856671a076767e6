import { binsRoot, endpointUrl, type EndpointRecord } from './common/api.js';
import { byId, el } from './common/dom.js';
import { binCode } from './bin-code.js';
import type { TryIt } from './try-it.js';

export type TryInBin = {
  /** Points the button at `record` (shown on `snippetkit serve` only); clears the last outcome. */
  show(record: EndpointRecord): void;
};

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The bin's HTML: a plain page, titled after the endpoint. */
function binHtml(name: string): string {
  return `<!DOCTYPE html>\n<html>\n<head>\n  <meta charset="utf-8">\n  <title>${escapeText(name)}</title>\n</head>\n<body>\n\n</body>\n</html>\n`;
}

/** The bin server's refusal in its own words (`{ "error" }`), with what to do about the usual one. */
function refusal(status: number, answer: { error?: unknown }): string {
  const said = typeof answer.error === 'string' ? answer.error : `the bin server answered ${status}`;
  if (status !== 401 && status !== 403) return `Not saved: ${said}.`;
  return `Not saved: ${said}. Open the editor once with the key (the address snippetkit serve printed), then try again.`;
}

/**
 * "Try it in a bin", on `snippetkit serve`: saves a new bin through the bins' API (a real bin, with an
 * address to share, as a JS Bin user expects) whose JavaScript makes the call "Try it" is set up to make
 * and logs the answer, then opens it in the editor with the JavaScript and the console showing. The
 * save is this page's: same origin as the editor, so the browser's session cookie (the key given once)
 * lets it save where saves need the key.
 */
export function createTryInBin(tryIt: TryIt): TryInBin {
  const button = byId<HTMLButtonElement>('try-in-bin');
  const status = byId('try-in-bin-status');
  let record: EndpointRecord | undefined;

  button.addEventListener('click', async () => {
    const root = binsRoot();
    if (!root || !record) return;
    const { name } = record;
    const route = record.path ?? record.name;
    const javascript = binCode({ name, route, call: tryIt.call(), endpoints: new URL(endpointUrl('')).pathname });
    button.disabled = true;
    status.className = 'hint';
    status.textContent = 'Saving a new bin…';
    try {
      const res = await fetch(new URL('api/save', root), {
        method: 'POST',
        body: new URLSearchParams({ html: binHtml(name), css: '', javascript }),
        cache: 'no-store',
      });
      const answer = (await res.json().catch(() => ({}))) as { url?: unknown; snapshot?: unknown; error?: unknown };
      if (!res.ok || typeof answer.url !== 'string' || typeof answer.snapshot !== 'number') {
        status.className = 'error';
        status.textContent = refusal(res.status, answer);
        return;
      }
      const bin = `${answer.url}/${answer.snapshot}`;
      const editor = new URL(`${bin}/edit?js,console`, root).href;
      const link = el('a', { href: editor, target: '_blank', rel: 'noopener' }, bin);
      // Opened at once (the click's user activation lasts seconds); a blocked pop-up leaves the link.
      const opened = window.open(editor, '_blank');
      if (opened) opened.opener = null;
      status.replaceChildren(...(opened ? ['Saved as ', link, ' and opened in the editor.'] : ['Saved as ', link, ': open it in the editor.']));
    } catch {
      status.className = 'error';
      status.textContent = 'Not saved: the bin server cannot be reached.';
    } finally {
      button.disabled = false;
    }
  });

  return {
    show(shown) {
      record = shown;
      button.hidden = binsRoot() === undefined;
      status.replaceChildren();
    },
  };
}
