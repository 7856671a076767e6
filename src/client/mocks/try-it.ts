import { endpointUrl } from './api.js';
import { byId, headerList, pretty } from './dom.js';

export type TryIt = {
  /** Points the panel at `name` and clears the last result. */
  show(name: string): void;
};

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** The "Try it" panel: calls the endpoint from the browser and shows status, time, headers and body. */
export function createTryIt(): TryIt {
  const method = byId<HTMLSelectElement>('try-method');
  const body = byId<HTMLTextAreaElement>('try-body');
  const button = byId<HTMLButtonElement>('try');
  const result = byId('try-result');
  let name = '';

  method.addEventListener('change', () => (body.hidden = !WITH_BODY.has(method.value)));

  button.addEventListener('click', async () => {
    button.disabled = true;
    const started = performance.now();
    try {
      const init: RequestInit = { method: method.value, cache: 'no-store' };
      if (WITH_BODY.has(method.value) && body.value.trim() !== '') {
        init.body = body.value;
        init.headers = { 'content-type': 'application/json' };
      }
      const res = await fetch(endpointUrl(name), init);
      const text = await res.text();
      // Time to the last byte, as a client would wait for it (the endpoint's delay included).
      const took = performance.now() - started;
      byId('try-status').textContent = `${res.status} ${res.statusText}`.trim();
      byId('try-time').textContent = `${Math.round(took)} ms`;
      byId('try-headers').replaceChildren(headerList(res.headers.entries()));
      byId('try-response').textContent = pretty(text);
    } catch (err) {
      byId('try-status').textContent = `The call failed: ${(err as Error).message}`;
      byId('try-time').textContent = `${Math.round(performance.now() - started)} ms`;
      byId('try-headers').replaceChildren();
      byId('try-response').textContent = '';
    } finally {
      result.hidden = false;
      button.disabled = false;
    }
  });

  return {
    show(next) {
      name = next;
      result.hidden = true;
    },
  };
}
