import type { Panels } from './assemble.js';

/** One entry of the editor's revision menu. */
export type RevisionEntry = { rev: number; created: string };

/**
 * What the server puts in the editor page for the client to start from (JSON in a script element).
 * Never holds the API key: the editor asks the user for it.
 */
export type EditorData = {
  /** Relative path from the page to the server's root ("./", "../", "../../"), so a proxy may mount us under a prefix. */
  root: string;
  /** The bin being edited, or null on `/` (a save makes a new bin). */
  bin: string | null;
  /** The revision loaded, or null on `/`. */
  rev: number | null;
  panels: Panels;
  /** The revision's settings as saved (the editor's preprocessor menus start from settings.processors). */
  settings: Record<string, unknown>;
  /** A read-only editor that follows the bin's live changes (`/:bin/watch`). */
  watch?: boolean;
  /** The bin's revisions, newest first; empty on `/`. */
  revisions: RevisionEntry[];
  /**
   * Set when this server saves nothing from anyone (no key exists and anonymous saves are off): why,
   * and which setting would change it. The editor says so up front instead of asking for a key.
   */
  readOnly?: string;
  /** Set when the server made its key itself: how its owner finds it, shown in the key dialog. */
  keyHint?: string;
};

/** The id of the script element holding the EditorData. */
export const EDITOR_DATA_ID = 'editor-data';
