// What an engine keeps, beneath the store's caches: a bin's revisions and the server's template.

export type Settings = Record<string, unknown>;

/** One saved revision of a bin; revisions are never rewritten. */
export type Revision = {
  html: string;
  javascript: string;
  css: string;
  settings: Settings;
  /** ISO 8601 time of the save. */
  created: string;
};

/** The server's starting point for new bins, as "Save as template" (or PUT /api/template) left it. */
export type Template = {
  html: string;
  javascript: string;
  css: string;
  settings: Settings;
  /** ISO 8601 time it was saved. */
  updated: string;
};
