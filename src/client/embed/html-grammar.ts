import { parser as css } from '@lezer/css';
import { configureNesting, parser as html } from '@lezer/html';
import { parser as javascript } from '@lezer/javascript';

/** Scripts that hold data or templates, not JavaScript: they stay plain, as in the editor's HTML mode. */
const NOT_JAVASCRIPT = /^(importmap|speculationrules|application\/(.+\+)?json|text\/(template|html|x-template))$/i;

/** The event attributes whose values are JavaScript, the common ones. */
const EVENTS = ['onclick', 'onchange', 'oninput', 'onsubmit', 'onload', 'onkeydown', 'onkeyup', 'onmouseover', 'onmouseout'];

/**
 * HTML with its scripts, styles and style/event attributes highlighted in their own languages: the nesting
 * @codemirror/lang-html sets up (its `defaultNesting`), built from the Lezer parsers alone.
 */
export function htmlParser() {
  const typescript = javascript.configure({ dialect: 'ts' });
  const jsx = javascript.configure({ dialect: 'jsx ts' });
  const type = (attrs: Record<string, string>) => attrs.type ?? '';
  return html.configure({
    wrap: configureNesting(
      [
        { tag: 'script', attrs: (a) => type(a) === 'text/typescript' || a.lang === 'ts', parser: typescript },
        { tag: 'script', attrs: (a) => /^text\/(babel|jsx|typescript-jsx)$/.test(type(a)), parser: jsx },
        { tag: 'script', attrs: (a) => !NOT_JAVASCRIPT.test(type(a)), parser: javascript },
        { tag: 'style', parser: css },
      ],
      [
        { name: 'style', parser: css.configure({ top: 'Styles' }) },
        ...EVENTS.map((name) => ({ name, parser: javascript })),
      ],
    ),
  });
}
