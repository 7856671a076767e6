import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackResult } from '../record/record.js';
import { CALLBACK_DEPTH_HEADER_KEY, callbackDepth, type CallbackSender, type Planned } from '../callbacks/sender.js';
import { later } from './delay.js';

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
