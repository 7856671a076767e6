import { autorun } from '../common/storage.js';

/**
 * "Auto-run JS" (kept in this browser), "Run with JS" and Ctrl/Cmd+Enter, as in JS Bin: with auto-run
 * off, typing still re-renders the HTML and CSS but the JavaScript runs only when asked. `run` renders
 * now with the JavaScript.
 */
export function wireRunControls(run: () => void): { withJs(): boolean } {
  const box = document.getElementById('autorun') as HTMLInputElement;
  box.checked = autorun.get();
  box.addEventListener('change', () => {
    autorun.set(box.checked);
    if (box.checked) run();
  });
  document.getElementById('run')!.addEventListener('click', run);
  // Capture phase: inside an editor, Enter would otherwise insert a line first.
  addEventListener(
    'keydown',
    (event) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key === 'Enter') {
        event.preventDefault();
        run();
      }
    },
    true,
  );
  return { withJs: () => box.checked };
}
