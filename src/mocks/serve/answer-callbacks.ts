import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackResult } from '../record/record.js';
import { CALLBACK_DEPTH_HEADER_KEY, callbackDepth, type CallbackSender, type Planned } from '../callbacks/sender.js';
import { later } from './delay.js';
import type { RequestFeed } from '../log/feed.js';
import type { LoggedRequest } from '../log/request-log.js';

/**
 * Sends the answer after `delay`, then starts its callbacks: they follow the answer, as Mockoon's
 * and WireMock's do. A client that leaves during the delay gets no answer, and its callbacks are not
 * sent; their results say so rather than wait for ever.
 */
export function answerThenCall(
  req: IncomingMessage,
  res: ServerResponse,
  delay: number,
  send: () => void,
  call: { sender: CallbackSender; planned: Planned[]; results: CallbackResult[]; changed: () => void },
): void {
  let answered = false;
  later(res, delay, () => {
    answered = true;
    send();
    call.sender.start(call.planned, call.results, call.changed, callbackDepth(req.headers[CALLBACK_DEPTH_HEADER_KEY]));
  });
  if (answered) return;
  res.once('close', () => {
    if (answered) return;
    for (const result of call.results) {
      if (result.error === undefined) result.error = 'not sent: the client left before the answer';
    }
    call.changed();
  });
}

/**
 * What a callback calls as it ends: the page's stream gets the entry again. Made here, not in respond(),
 * whose closures share one context that holds the request, the answer and the body text; and holding the
 * entry weakly: once the log lets it go, no page shows its row, and a callback waiting a minute keeps
 * only its own rendered request (measured: 92 KB a waiting callback with a 32 KB body before, 72 charged).
 */
export function callbacksChanged(feed: RequestFeed, name: string, entry: LoggedRequest): () => void {
  const held = new WeakRef(entry);
  return () => {
    const now = held.deref();
    if (now) feed.publishCallbacks(name, now);
  };
}

