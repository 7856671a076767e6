import type { Command } from 'commander';
import { clientContext } from '../common/client-flags.js';
import { fetchRevision } from './pull.js';
import { postSave } from './save.js';
import { safeLine } from '../common/terminal-text.js';

/** `snippetkit clone BIN[/REV]`: a new bin whose revision 1 is that revision (panels, settings and mocks). */
export async function clone(target: string, command: Command): Promise<void> {
  const { client, out } = clientContext(command, 'bin');
  const { bin, found } = await fetchRevision(client, target, 'clone');
  const form: Record<string, string> = {
    html: found.html as string,
    css: found.css as string,
    javascript: found.javascript as string,
  };
  // The preprocessors live in settings: a clone without them would render differently.
  if (found.settings && typeof found.settings === 'object') form.settings = JSON.stringify(found.settings);
  // A revision saved with mocks keeps them in its clone: the sketch and its API go together.
  if (Array.isArray(found.mocks)) form.mocks = JSON.stringify(found.mocks);
  const saved = await postSave(client, 'api/save', form);
  out.note(`cloned ${bin}/${String(found.snapshot)}`);
  out.result(`${safeLine(saved.url)}\n${safeLine(saved.edit)}`, { ...saved, from: { bin, snapshot: found.snapshot } });
}
