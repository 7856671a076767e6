import { HttpError } from './errors.js';

/** More fields than any save needs; a flood of them is refused rather than parsed. */
export const MAX_FORM_FIELDS = 1000;

export type FormFields = Record<string, string | string[]>;

/**
 * Parses an application/x-www-form-urlencoded body strictly: a malformed %-escape is a 400 (not
 * kept as text or turned into U+FFFD), a name given twice becomes an array (so callers can refuse
 * it), and more than MAX_FORM_FIELDS fields is a 413.
 */
export function parseForm(text: string): FormFields {
  const fields: FormFields = Object.create(null) as FormFields;
  if (text === '') return fields;
  const pairs = text.split('&');
  if (pairs.length > MAX_FORM_FIELDS) throw new HttpError(413, `too many form fields (more than ${MAX_FORM_FIELDS})`);
  for (const pair of pairs) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
    const existing = fields[name];
    fields[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return fields;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw new HttpError(400, 'the form body has a malformed %-escape or is not UTF-8');
  }
}
