import type { Panels } from '../../shared/assemble.js';
import {
  describeError,
  isCompiled,
  PANELS,
  processorsOf,
  type PanelName,
  type Processor,
  type ProcessorChoice,
} from '../../shared/processors.js';

export type Selectors = {
  read(): ProcessorChoice;
  write(choice: ProcessorChoice): void;
};

/** The `#processor-<panel>` menus, starting from the revision's settings; `onChange` on every choice. */
export function wireSelectors(settings: Record<string, unknown>, onChange: () => void): Selectors {
  const menus = Object.fromEntries(
    PANELS.map((name) => [name, document.getElementById(`processor-${name}`) as HTMLSelectElement]),
  ) as Record<PanelName, HTMLSelectElement>;
  const write = (choice: ProcessorChoice) => PANELS.forEach((name) => (menus[name].value = choice[name]));
  write(processorsOf(settings));
  for (const name of PANELS) menus[name].addEventListener('change', onChange);
  return {
    read: () => processorsOf({ processors: Object.fromEntries(PANELS.map((name) => [name, menus[name].value])) }),
    write,
  };
}

export type Compiled = { panels: Panels; errors: string[] };

type Answer = { code?: string; error?: string; line?: number; column?: number };

/**
 * Compiles through the server's POST /api/compile (see src/bins/compile/route.ts for why not in the
 * browser). Answers are kept by source, so typing in one pane does not recompile the others. The key
 * goes along when there is one: a server whose reads need the key compiles only for its holders.
 */
export function createPanelCompiler(
  root: URL,
  apiKey: () => string | null,
): (panels: Panels, choice: ProcessorChoice) => Promise<Compiled> {
  const known = new Map<string, Promise<Answer>>();

  function ask(processor: Processor, source: string): Promise<Answer> {
    const key = `${processor}\0${source}`;
    let answer = known.get(key);
    if (!answer) {
      const token = apiKey();
      answer = fetch(new URL('api/compile', root), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { Authorization: `token ${token}` }) },
        body: JSON.stringify({ processor, source }),
      })
        .then((res) => {
          // Refused for want of the key: ask again next time, when it may have been given.
          if (res.status === 403) known.delete(key);
          return res.json() as Promise<Answer>;
        })
        .catch(() => ({ error: 'the server could not be reached' }));
      known.set(key, answer);
      // A few panes' worth of recent answers is all the preview needs.
      if (known.size > 30) known.delete(known.keys().next().value!);
    }
    return answer;
  }

  return async (panels, choice) => {
    const out: Panels = { ...panels };
    const errors: string[] = [];
    await Promise.all(
      PANELS.filter((name) => isCompiled(choice[name])).map(async (name) => {
        const answer = await ask(choice[name], panels[name]);
        if (typeof answer.code === 'string') {
          out[name] = answer.code;
        } else {
          out[name] = '';
          errors.push(describeError(choice[name], { message: answer.error ?? 'failed', line: answer.line, column: answer.column }));
        }
      }),
    );
    return { panels: out, errors };
  };
}
