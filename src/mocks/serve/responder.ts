import type { Delay, Fault, Pick, ResponseRecord, StoredMock, When } from '../record/record.js';
import { compileRecord, type CompiledRecord } from '../record/templates.js';
import { compileCallbacks } from '../record/callback-templates.js';
import { TemplateError, useCpuBudget, type TemplateInput } from '../templates/template.js';
import type { Planned } from '../callbacks/sender.js';
import { CpuBudgetExceeded, DEFAULT_MAX_REQUEST_CPU, startCpuBudget } from '../../gates/cpu-budget.js';
import { responseNumber } from '../../shared/response-label.js';
import { buildHead, NO_BODY } from './answer-head.js';
import { matchesWhen } from './when-match.js';

/** Status, head and body, ready to write. */
export type Answer = { status: number; head: string[]; body: Buffer };

/** One way an endpoint answers: its own fields (`index` null) or a response's, over the endpoint's. */
export type Variant = {
  index: number | null;
  status: number;
  delay: Delay;
  fault?: Fault;
  faultRate: number;
  /** The state the endpoint's scenario moves to when this variant is chosen. */
  setState?: string;
  /** Throws a TemplateError when a template fails to render. */
  answer(input: TemplateInput | undefined): Answer;
  /** The callbacks to send once the answer is sent, rendered for this request (after answer(), on the same budget). */
  callbacks?(input: TemplateInput): Planned[];
};

export type Responder = {
  /** Whether choosing or answering reads the request (a `when` or a template): else input is undefined. */
  needsInput: boolean;
  /**
   * The variant for this request; `position` is the endpoint's sequence counter, `state` its scenario's
   * state now (undefined without a scenario: a `when.state` then never matches).
   */
  choose(input: TemplateInput | undefined, position: { sequence: number }, random: () => number, state?: string): Variant;
  /** The endpoint's own answer when it has `status`, else the first response that has it (`?__code=`). */
  withStatus(status: number): Variant | undefined;
};

/** Endpoints with none of the issue 12 answers keep the pre-built head and body of the fast path. */
export function isPlain(record: StoredMock): boolean {
  const { template, responses, fault, delay, json, setState, callbacks } = record;
  const plain = !template && !responses?.length && !fault && typeof delay === 'number' && json !== undefined;
  return plain && !setState && !callbacks?.length && !record.content;
}

/**
 * Compiles an endpoint version once: its own answer and each response, fields inherited field by
 * field. A templated answer renders under a CPU budget of `maxRequestCpu` ms per request.
 */
export function compileResponder(
  record: StoredMock,
  cors: boolean,
  maxRequestCpu: number = DEFAULT_MAX_REQUEST_CPU,
): Responder {
  const templates = record.template ? compiledOrError(record) : undefined;
  const shared = { cors, maxRequestCpu, templates };
  const own = variant(record, null, record, shared);
  const responses = record.responses ?? [];
  const variants = responses.map((response, i) => variant(record, i, response, shared));
  const pick: Pick = record.pick ?? 'first-match';
  // Callbacks are templates over the request whatever `template` says.
  const calls = Boolean(record.callbacks?.length) || responses.some((r) => r.callbacks?.length);
  const needsInput = Boolean(record.template) || calls || (pick === 'first-match' && responses.some((r) => readsRequest(r.when)));
  return {
    needsInput,
    choose(input, position, random, state) {
      if (variants.length === 0) return own;
      if (pick === 'sequence') {
        // Kept modulo the current list, so a shorter list after a replace still wraps round correctly.
        const at = position.sequence % variants.length;
        position.sequence = (at + 1) % variants.length;
        return variants[at]!;
      }
      if (pick === 'random') return variants[Math.floor(random() * variants.length)]!;
      const i = responses.findIndex((r) => {
        const { when } = r;
        if (!when) return true;
        if (when.state !== undefined && when.state !== state) return false;
        return !readsRequest(when) || (input !== undefined && matchesWhen(when, input));
      });
      return i === -1 ? own : variants[i]!;
    },
    withStatus: (status) => {
      const found = own.status === status ? own : variants.find((v) => v.status === status);
      if (found || NO_BODY.has(status)) return found;
      // An OpenAPI `default`: any status no other answer has, with its answer.
      const any = variants.find((v) => v.index !== null && responses[v.index]?.anyStatus);
      return any && { ...any, status, answer: (input) => ({ ...any.answer(input), status }) };
    },
  };
}

/** Whether a `when` asks anything of the request (a `when` of only `state` asks the scenario). */
function readsRequest(when: When | undefined): boolean {
  return when !== undefined && Object.keys(when).some((part) => part !== 'state');
}

/** The record's templates, or the error to answer with: saved before templates were checked at save time. */
function compiledOrError(record: StoredMock): CompiledRecord | TemplateError {
  try {
    return compileRecord(record);
  } catch (err) {
    if (err instanceof TemplateError) return err;
    throw err;
  }
}

/** The Content-Type an answer has when its headers name none. */
function typeOf(payload: ResponseRecord): string {
  if (payload.json !== undefined) return 'application/json; charset=utf-8';
  if (payload.base64Body !== undefined) return 'application/octet-stream';
  return 'text/plain; charset=utf-8';
}

type Shared = { cors: boolean; maxRequestCpu: number; templates: CompiledRecord | TemplateError | undefined };

function variant(record: StoredMock, index: number | null, from: ResponseRecord, shared: Shared): Variant {
  const { cors, maxRequestCpu, templates } = shared;
  const status = from.statusCode ?? record.statusCode;
  const answeredBy = index === null ? record.name : `${record.name} ${responseNumber(index)}`;
  // A response's data or body replaces the endpoint's; its headers are added to the endpoint's by name.
  const own = from.json !== undefined || from.body !== undefined || from.base64Body !== undefined;
  const payload = own ? from : record;
  const headers = mergeHeaders(record.headers, index === null ? undefined : from.headers);
  const type = typeOf(payload);
  const base = {
    index,
    status,
    delay: from.delay ?? record.delay,
    faultRate: from.faultRate ?? record.faultRate ?? 1,
    // Not inherited: the endpoint's own setState is its own answer's (docs/mock-api.md, "Scenarios").
    ...(from.setState !== undefined && { setState: from.setState }),
    ...((from.fault ?? record.fault) && { fault: from.fault ?? record.fault }),
    ...withCallbacks(record, index, from, shared),
  };
  // Bytes are never a template: they are served as they are, the headers rendered as any other's.
  const bytes = payload.base64Body === undefined ? undefined : Buffer.from(payload.base64Body, 'base64');
  if (templates === undefined) {
    const body = bytes ?? Buffer.from(payload.json ?? payload.body ?? '', 'utf8');
    const answer: Answer = { status, head: buildHead(status, headers, body.length, type, cors, answeredBy), body };
    return { ...base, answer: () => answer };
  }
  if (templates instanceof TemplateError) {
    return {
      ...base,
      answer: () => {
        throw templates;
      },
    };
  }
  const mine = index === null ? templates.answer : templates.responses[index]!;
  const bodyFrom = own ? mine : templates.answer;
  const renderBody = bodyFrom.json ?? bodyFrom.body ?? (() => '');
  // The endpoint's header templates, each replaced by the response's of the same name.
  const renderHeaders = index === null ? (mine.headers ?? []) : mergeByName(templates.answer.headers, mine.headers);
  return {
    ...base,
    answer(input) {
      // The CPU gate: one budget for every field this request renders (src/gates/cpu-budget.ts).
      useCpuBudget(input!, startCpuBudget(maxRequestCpu));
      try {
        const body = bytes ?? Buffer.from(renderBody(input!), 'utf8');
        const rendered: Record<string, string> = {};
        for (const [name, render] of renderHeaders) rendered[name] = render(input!);
        return { status, head: buildHead(status, rendered, body.length, type, cors, answeredBy), body };
      } catch (err) {
        if (err instanceof CpuBudgetExceeded) return overBudget(err, cors);
        throw err;
      }
    },
  };
}

/**
 * A variant's callbacks (a response's own, else the endpoint's), rendered on the request's CPU budget:
 * a templated answer has set it already; an answer without templates gets one here. A template that
 * fails, or the budget spent, makes a callback that is not sent and says why; the answer stands.
 */
function withCallbacks(record: StoredMock, index: number | null, from: ResponseRecord, shared: Shared): { callbacks?: Variant['callbacks'] } {
  const callbacks = from.callbacks ?? record.callbacks;
  if (!callbacks?.length) return {};
  const field = from.callbacks && index !== null ? `responses[${index}].callbacks` : 'callbacks';
  let compiled: ReturnType<typeof compileCallbacks> | TemplateError;
  try {
    compiled = compileCallbacks(callbacks, field);
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    compiled = err;
  }
  return {
    callbacks(input) {
      if (shared.templates === undefined) useCpuBudget(input, startCpuBudget(shared.maxRequestCpu));
      return callbacks.map((callback, i): Planned => {
        try {
          if (compiled instanceof TemplateError) throw compiled;
          return compiled[i]!(input);
        } catch (err) {
          if (!(err instanceof TemplateError || err instanceof CpuBudgetExceeded)) throw err;
          return { method: callback.method, url: callback.url, error: `not sent: ${err.message}` };
        }
      });
    },
  };
}

/** The CPU gate's refusal: a 503 in the mock server's error shape, naming the budget; nothing of the render is sent. */
function overBudget(err: CpuBudgetExceeded, cors: boolean): Answer {
  const body = Buffer.from(JSON.stringify({ success: false, message: err.message }));
  const head = buildHead(err.status, {}, body.length, 'application/json; charset=utf-8', cors);
  return { status: err.status, head, body };
}

/** The endpoint's headers, then the response's, a response's header replacing one of the same name. */
function mergeHeaders(own: Record<string, string> = {}, extra: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(mergeByName(Object.entries(own), Object.entries(extra)));
}

/** `own` without the names `extra` gives (in any case), then `extra`. */
function mergeByName<T>(own: [string, T][] = [], extra: [string, T][] = []): [string, T][] {
  const replaced = new Set(extra.map(([name]) => name.toLowerCase()));
  return [...own.filter(([name]) => !replaced.has(name.toLowerCase())), ...extra];
}
