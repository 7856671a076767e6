import { parseBinClaim } from '../../shared/bin-claim.js';
import { binsRoot, type LoggedRequest } from './common/api.js';
import { byId, el } from './common/dom.js';

/** How many bins the endpoint's view names: the last distinct ones among the requests its log holds. */
export const RECENT_BINS = 5;

/**
 * The bin's name, linked to its editor on `snippetkit serve` (in a new tab, so the log goes on being
 * followed here); plain text on a mock server alone, which knows no bin server.
 */
export function binLink(bin: string, text = bin): HTMLElement {
  const root = binsRoot();
  if (!root) return el('code', {}, bin);
  return el('a', { href: new URL(`${bin}/edit`, root).href, target: '_blank', rel: 'noopener', title: `Open ${bin} in the editor` }, text);
}

/**
 * What a log entry says of the bin whose page made the request (its `bin`, checked again here as the
 * server checks it: the log is anyone's to write to), or nothing for any other request. `line` is for
 * the entry's summary, text only (a link inside a <summary> is a control inside a control); `link`, on
 * `snippetkit serve`, opens the bin's editor from the entry's body.
 */
export function fromBin(request: LoggedRequest): { line: HTMLElement; link?: HTMLElement } | undefined {
  const bin = parseBinClaim(request.bin);
  if (bin === undefined) return undefined;
  const line = el('span', { class: 'from-bin' }, 'from bin ', el('code', {}, bin));
  if (!binsRoot()) return { line };
  return { line, link: el('p', { class: 'bin-editor' }, binLink(bin, `Open ${bin} in the editor`)) };
}

/** When a bin last called, to the second, as the log's own times read. */
const lastCalled = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour12: false });

export type RecentBins = {
  /** The log as a whole (newest first): a new endpoint, or the stream's first event. */
  reset(requests: readonly LoggedRequest[]): void;
  /** A request as it arrives. */
  add(request: LoggedRequest): void;
};

/** #recent-bins in the endpoint's view: the bins that called it lately, newest first, each linked to its editor. */
export function createRecentBins(): RecentBins {
  const box = byId('recent-bins');
  const list = byId<HTMLUListElement>('recent-bins-list');
  let bins: { bin: string; time: string }[] = [];

  const draw = () => {
    list.replaceChildren(
      ...bins.map(({ bin, time }) => el('li', {}, binLink(bin), ' ', el('time', { datetime: time, title: time }, lastCalled(time)))),
    );
    box.hidden = bins.length === 0;
  };
  const note = (request: LoggedRequest, newest: boolean) => {
    const bin = parseBinClaim(request.bin);
    if (bin === undefined) return;
    const rest = bins.filter((seen) => seen.bin !== bin);
    if (!newest) {
      if (rest.length === bins.length && bins.length < RECENT_BINS) bins.push({ bin, time: request.time });
      return;
    }
    bins = [{ bin, time: request.time }, ...rest].slice(0, RECENT_BINS);
  };

  return {
    reset(requests) {
      bins = [];
      for (const request of requests) {
        if (bins.length === RECENT_BINS) break;
        note(request, false);
      }
      draw();
    },
    add(request) {
      if (parseBinClaim(request.bin) === undefined) return;
      note(request, true);
      draw();
    },
  };
}
