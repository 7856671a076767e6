/**
 * The prompt under the console: evaluates an expression in the preview (its capture script answers with
 * a `result` or `error` record, which the console pane lists). Only messages cross into the sandboxed
 * frame; it never gets the editor's origin. Up and Down walk back through what was entered.
 */
export function wireConsoleInput(frame: HTMLIFrameElement, echo: (text: string) => void): void {
  const form = document.getElementById('console-input') as HTMLFormElement;
  const input = form.querySelector('input')!;
  const history: string[] = [];
  let back = 0; // how far back in history the input is; 0 is a fresh line

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const code = input.value;
    if (code.trim() === '') return;
    if (history.at(-1) !== code) history.push(code);
    back = 0;
    input.value = '';
    echo(code);
    // The frame's origin is opaque, so no target origin can name it: '*', to the frame's own window.
    frame.contentWindow?.postMessage({ snippetkit: 'eval', code }, '*');
  });

  input.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    back = Math.max(0, Math.min(history.length, back + (event.key === 'ArrowUp' ? 1 : -1)));
    input.value = back === 0 ? '' : history[history.length - back]!;
  });
}
