import type { Panels } from '../../shared/assemble.js';
import type { ProcessorChoice } from '../../shared/processors.js';
import { withKey } from './key-dialog.js';
import { sendPanels } from './save.js';
import { say } from '../common/status.js';

export type TemplateOptions = {
  root: URL;
  /** What is on screen now: the panels and their preprocessors. */
  read(): { panels: Panels; processors: ProcessorChoice };
};

/**
 * The toolbar's "Save as template" button: what is on screen becomes what "New" (the server's root)
 * starts from, sent as a save is (PUT /api/template). A missing or wrong key is asked for, as Save asks.
 */
export function wireTemplateButton({ root, read }: TemplateOptions): void {
  const button = document.getElementById('save-template') as HTMLButtonElement;
  button.addEventListener('click', async () => {
    if (button.disabled) return;
    button.disabled = true;
    const { panels, processors } = read();
    try {
      const result = await withKey(root, (key) => sendPanels(new URL('api/template', root), 'PUT', panels, processors, key));
      if (result.ok) say('Saved as the template: New starts from it.');
      else say(`Template not saved: ${result.error}.`, 'error');
    } finally {
      button.disabled = false;
    }
  });
}
