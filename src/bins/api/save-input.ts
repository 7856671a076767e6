import type { Context } from 'koa';
import { HttpError } from '../../http/errors.js';
import { parseForm } from '../../http/form.js';
import { isJsonObject, readJsonBody } from '../../http/json-body.js';
import { jsonField } from '../../http/json-object.js';
import { hasBody, readBodyText } from '../../http/read-body.js';
import type { BinConfig } from '../config/config.js';
import { checkOutputSettings } from './output-settings.js';
import { jsonDepth } from './json-depth.js';
import { MOCKS_SETTING, readMocks, type BinMock } from './save-mocks.js';
import type { Settings } from '../engines/records.js';
import { PANELS } from '../../shared/processors.js';

export const NO_CONTENT = 'Unable to save: The bin has no content';
export const BLACKLISTED = 'Unable to save: Post contains blacklisted content';

export type SaveInput = {
  html: string;
  javascript: string;
  css: string;
  settings: Settings | undefined;
  /** The endpoint records the revision keeps (save-mocks.ts); undefined for none. */
  mocks: BinMock[] | undefined;
};

/**
 * The body of a save, form-encoded (JS Bin's) or JSON (what jsbin-client sends); read strictly,
 * so invalid UTF-8 or a broken %-escape is refused rather than stored altered.
 */
export async function readSaveBody(ctx: Context, limit: number | string): Promise<unknown> {
  // An empty save, whatever its type, is JS Bin's "no content" (from readSaveInput), not a 415.
  if (!hasBody(ctx.req)) return {};
  const type = ctx.is('application/x-www-form-urlencoded', 'application/json', '+json');
  if (!type) {
    throw new HttpError(415, 'send the save as application/x-www-form-urlencoded or application/json');
  }
  if (type === 'application/x-www-form-urlencoded') return parseForm(await readBodyText(ctx, limit));
  return (await readJsonBody(ctx, { limit })) ?? {};
}

/**
 * Reads a save body (form or JSON): only html, javascript, css, settings and (ours) mocks; a panel not sent
 * is "". `settings` may be a JSON string (as JS Bin clients send it) or an object; so may `mocks` (a list).
 */
export function readSaveInput(body: unknown, config: BinConfig): SaveInput {
  const fields = isJsonObject(body) ? body : {};
  const panels = { html: '', javascript: '', css: '' };
  for (const panel of PANELS) {
    const value = fields[panel];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new HttpError(400, `${panel} must be a string`, panel);
    panels[panel] = value;
  }
  const settings = readSettings(fields.settings);
  const mocks = readMocks(fields.mocks);
  if (PANELS.every((panel) => panels[panel].trim() === '')) throw new HttpError(400, NO_CONTENT);
  const banned = config.blacklist.html.filter((word) => typeof word === 'string' && word !== '');
  const mockText = mocks ? JSON.stringify(mocks) : '';
  if (banned.some((word) => PANELS.some((panel) => panels[panel].includes(word)) || mockText.includes(word))) {
    throw new HttpError(400, BLACKLISTED);
  }
  return { ...panels, settings, mocks };
}

function readSettings(value: unknown): Settings | undefined {
  const parsed = jsonField(value, 'settings');
  if (parsed === undefined) return undefined;
  if (!isJsonObject(parsed)) throw new HttpError(400, 'settings must be a JSON object', 'settings');
  if (jsonDepth(parsed, MAX_SETTINGS_DEPTH) > MAX_SETTINGS_DEPTH) {
    throw new HttpError(400, `settings are nested more than ${MAX_SETTINGS_DEPTH} levels deep`, 'settings');
  }
  if (Object.hasOwn(parsed, MOCKS_SETTING)) {
    const message = `settings.${MOCKS_SETTING} is not a setting: send a revision's mocks as the save's own ${MOCKS_SETTING} field`;
    throw new HttpError(400, message, `settings.${MOCKS_SETTING}`);
  }
  checkOutputSettings(parsed);
  return parsed;
}

/** Deeper settings would overflow the stack of the recursive merge and of JSON.stringify. */
const MAX_SETTINGS_DEPTH = 32;

/** New settings merged key by key over the previous revision's; arrays and values replace. */
export function mergeSettings(previous: Settings, next: Settings | undefined): Settings {
  if (!next) return previous;
  const out: Settings = { ...previous };
  for (const [key, value] of Object.entries(next)) {
    if (key === '__proto__') continue; // would replace the merged object's prototype
    const current = out[key];
    out[key] = isJsonObject(current) && isJsonObject(value) ? mergeSettings(current, value) : value;
  }
  return out;
}

