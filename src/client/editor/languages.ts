import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { less } from '@codemirror/lang-less';
import { markdown } from '@codemirror/lang-markdown';
import { sass } from '@codemirror/lang-sass';
import { StreamLanguage } from '@codemirror/language';
import { coffeeScript } from '@codemirror/legacy-modes/mode/coffeescript';
import { pug } from '@codemirror/legacy-modes/mode/pug';
import { stylus } from '@codemirror/legacy-modes/mode/stylus';
import type { Extension } from '@codemirror/state';
import type { Processor } from '../../shared/processors.js';

/**
 * The editing language of a pane under each preprocessor. Pug, CoffeeScript and Stylus have no Lezer grammar,
 * so they use CodeMirror 5's modes through StreamLanguage (highlighting and indentation, no syntax tree).
 */
const LANGUAGES: Record<Processor, () => Extension> = {
  html,
  markdown,
  // The mode has no name of its own; named, the pane says data-language="pug" as the others do.
  pug: () => StreamLanguage.define({ ...pug, name: 'pug' }),
  css,
  less,
  scss: () => sass(),
  stylus: () => StreamLanguage.define(stylus),
  javascript,
  coffeescript: () => StreamLanguage.define(coffeeScript),
  typescript: () => javascript({ typescript: true }),
  jsx: () => javascript({ jsx: true, typescript: true }),
};

const made = new Map<Processor, Extension>();

/** The language extension for `processor`, made once: panes switching back and forth share it. */
export function languageOf(processor: Processor): Extension {
  let extension = made.get(processor);
  if (!extension) {
    extension = LANGUAGES[processor]();
    made.set(processor, extension);
  }
  return extension;
}
