import { assemble, type Panels } from '../shared/assemble.js';
import type { StoredRevision } from './store.js';

export type PanelName = keyof Panels;

/**
 * The panels as the output shows them. Today the stored source; issue 7's preprocessors
 * (settings.processors) compile here, so every output route picks them up.
 */
export function outputPanels(revision: StoredRevision): Panels {
  return { html: revision.html, css: revision.css, javascript: revision.javascript };
}

export type OutputOptions = {
  /** Where the "edit" link points; none when undefined (quiet, source, download). */
  editUrl?: string;
};

/** A revision's output page, by the same rules as the editor's preview (src/shared/assemble.ts). */
export function renderOutput(revision: StoredRevision, { editUrl }: OutputOptions = {}): string {
  return assemble(outputPanels(revision), { editUrl, label: `${revision.bin}/${revision.rev}` });
}

/** One panel on its own, for `/:bin.js`, `.css` and `.html`. */
export function renderPanel(revision: StoredRevision, panel: PanelName): string {
  return outputPanels(revision)[panel];
}
