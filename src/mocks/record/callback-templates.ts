import type { Callback } from './record.js';
import { compileJson, compileText, newCompileBudget, TemplateError, type Render, type TemplateInput } from '../templates/template.js';
import { isHeaderValue } from './validate-fields.js';

/** A callback as it will be sent for one request: every template rendered. */
export type RenderedCallback = {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Absent for a callback without a body. */
  body?: string;
  delay: number;
};

/** Renders one callback for a request; throws a TemplateError naming the field (or the CPU gate's error). */
export type CompiledCallback = (input: TemplateInput) => RenderedCallback;

/**
 * Compiles callbacks' strings as templates (always: a callback says where the answered request's
 * data goes, so it reads the request even on an endpoint without `template`). `field` is where they
 * are (`callbacks`, `responses[2].callbacks`), for errors.
 */
export function compileCallbacks(callbacks: readonly Callback[], field: string): CompiledCallback[] {
  const budget = newCompileBudget();
  return callbacks.map((callback, i) => {
    const at = `${field}[${i}]`;
    const url = compileText(callback.url, `${at}.url`, budget);
    const headers = Object.entries(callback.headers ?? {}).map(([name, source]): [string, Render] => [
      name,
      compileText(source, `${at}.headers.${name}`, budget),
    ]);
    const { body } = callback;
    const json = body !== undefined && typeof body !== 'string';
    const renderBody =
      body === undefined ? undefined : json ? compileJson(JSON.stringify(body), `${at}.body`, budget) : compileText(body as string, `${at}.body`, budget);
    // JSON is sent as JSON unless the callback names its own type.
    const typed = Object.keys(callback.headers ?? {}).some((name) => name.toLowerCase() === 'content-type');
    return (input) => {
      const rendered: Record<string, string> = {};
      for (const [name, render] of headers) {
        const value = render(input);
        if (!isHeaderValue(value)) throw new TemplateError(`${at}.headers.${name}`, 'the value has characters not allowed in a header');
        rendered[name] = value;
      }
      if (json && !typed) rendered['Content-Type'] = 'application/json; charset=utf-8';
      return {
        method: callback.method,
        url: url(input),
        headers: rendered,
        ...(renderBody && { body: renderBody(input) }),
        delay: callback.delay ?? 0,
      };
    };
  });
}
