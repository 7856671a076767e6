/**
 * Text that came over the network, made safe to print for a person: control characters (C0, DEL, C1,
 * so ESC and every escape sequence), Unicode line separators and bidi controls are shown escaped
 * (`\x1b`, `\u202e`), so a webhook body cannot clear the screen, set the window title, move the cursor
 * to forge a line, or reorder what is shown. `--json` output does not go through here: it stays exact.
 */

// \n and \t are kept only where `lines` allows; \r is always escaped (it rewrites the line shown)
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_LINES = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One line of network text: newlines and tabs are escaped too. */
export function safeLine(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** A body or other multi-line text: newlines and tabs stay as they are, everything else unsafe is escaped. */
export function safeLines(text: string): string {
  return text.replace(UNSAFE_BUT_LINES, escape);
}

function escape(char: string): string {
  const code = char.charCodeAt(0);
  if (char === '\n') return '\\n';
  if (char === '\t') return '\\t';
  if (char === '\r') return '\\r';
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
