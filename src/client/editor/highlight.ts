import { defaultHighlightStyle, HighlightStyle, syntaxHighlighting } from '@codemirror/language';

/**
 * CodeMirror's default colours with the three that fall short of WCAG AA contrast on white (4.5:1, less
 * still on the active line's tint) darkened: tag and type names, regexps and escapes, invalid code.
 * axe-core (test/browser/accessibility.test.ts) reports the defaults as serious.
 */
const DARKER: Record<string, string> = { '#085': '#06603e', '#e40': '#b32d00', '#f00': '#c00' };

export const readableHighlighting = syntaxHighlighting(
  HighlightStyle.define(
    defaultHighlightStyle.specs.map((spec) =>
      typeof spec.color === 'string' && spec.color in DARKER ? { ...spec, color: DARKER[spec.color] } : spec,
    ),
  ),
);
