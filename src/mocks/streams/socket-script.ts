import { CpuBudgetExceeded, startCpuBudget } from '../../gates/cpu-budget.js';
import { isJsonObject } from '../../http/json-body.js';
import type { SocketReply, SocketScript } from '../record/record.js';
import { compileData } from '../record/stream-script.js';
import { contains } from '../serve/when-match.js';
import { newCompileBudget, TemplateError, useCpuBudget, type Render, type TemplateInput } from '../templates/template.js';

/** A WebSocket endpoint's script with its `data` compiled once per endpoint version. */
export type CompiledSocket = {
  script: SocketScript;
  onConnect: { render: Render; delay: number }[];
  replies: { reply: SocketReply; render?: Render }[];
  every?: { ms: number; render: Render };
};

export function compileSocket(script: SocketScript): CompiledSocket {
  const budget = newCompileBudget();
  return {
    script,
    onConnect: (script.onConnect ?? []).map((message, i) => ({
      render: compileData(message.data, `onConnect[${i}].data`, budget),
      delay: message.delay ?? 0,
    })),
    replies: (script.responses ?? []).map((reply, i) => ({
      reply,
      ...(reply.data !== undefined && { render: compileData(reply.data, `responses[${i}].data`, budget) }),
    })),
    ...(script.every && { every: { ms: script.every.ms, render: compileData(script.every.data, 'every.data', budget) } }),
  };
}

/** What a script does to its connection. */
export type SocketHooks = {
  send(data: string | Buffer): void;
  close(code: number, reason: string): void;
};

/** A running script: tell it each incoming message; stop() clears every timer it set (on close, always). */
export type RunningScript = { message(data: Buffer, binary: boolean): void; stop(): void };

/**
 * Runs `compiled` on one connection: onConnect's messages (each delay counted from the one before),
 * `every`, the scripted close, and a reply (or the echo) per incoming message. Templates see the
 * upgrade request (`base`) and, for a reply, `message` (its text) and `body` (its JSON, when it is).
 * Each rendering runs under the CPU gate; a template that fails closes the connection with 1011.
 */
export function runSocketScript(compiled: CompiledSocket, base: TemplateInput, hooks: SocketHooks, maxCpu: number): RunningScript {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopped) run();
    }, ms);
    timers.add(timer);
  };
  const render = (template: Render, input: TemplateInput): string | undefined => {
    useCpuBudget(input, startCpuBudget(maxCpu));
    try {
      return template(input);
    } catch (err) {
      if (!(err instanceof TemplateError || err instanceof CpuBudgetExceeded)) throw err;
      // A close reason is at most 123 bytes.
      hooks.close(1011, Buffer.from(err.message).subarray(0, 120).toString());
      return undefined;
    }
  };
  const sendRendered = (template: Render, input: TemplateInput) => {
    const text = render(template, input);
    if (text !== undefined && !stopped) hooks.send(text);
  };

  let at = 0;
  for (const { render: template, delay } of compiled.onConnect) {
    at += delay;
    later(at, () => sendRendered(template, { ...base }));
  }
  const { every, script } = compiled;
  if (every) {
    const timer = setInterval(() => sendRendered(every.render, { ...base }), every.ms);
    timers.add(timer);
  }
  if (script.close) {
    const { code, after } = script.close;
    later(after, () => hooks.close(code, 'closed by the endpoint script'));
  }

  return {
    message(data, binary) {
      if (stopped) return;
      const text = data.toString('utf8');
      const input = { ...base, message: text, body: parseJson(text) };
      const found = compiled.replies.find(({ reply }) => matches(reply, text, input.body));
      if (!found) {
        if (script.echo) hooks.send(binary ? data : text);
        return;
      }
      const { reply, render: template } = found;
      const act = () => {
        if (template) sendRendered(template, input);
        if (reply.close !== undefined && !stopped) hooks.close(reply.close, 'closed by the endpoint script');
      };
      if (reply.delay) later(reply.delay, act);
      else act();
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

function matches(reply: SocketReply, text: string, body: unknown): boolean {
  const { when } = reply;
  if (!when) return true;
  if (when.text !== undefined && text !== when.text) return false;
  if (when.contains !== undefined && !text.includes(when.contains)) return false;
  if (when.body && !(isJsonObject(body) && contains(body, when.body))) return false;
  return true;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
