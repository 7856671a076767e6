import { readFileSync } from 'node:fs';
import { packageFile } from '../../server/package-files.js';
import { EDITOR_DATA_ID, type EditorData } from '../../shared/editor-data.js';
import { bundles } from './assets.js';

/** templates/ of the package. */
const TEMPLATES = packageFile('templates/');

const cache = new Map<string, string>();

/** A file of templates/, read once: they are part of the installed package and never change under us. */
function template(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(TEMPLATES + name, 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** Replaces each {{name}} with its value, HTML-escaped unless the name is in `raw`. */
function fill(text: string, values: Record<string, string>, raw: string[] = []): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name] ?? '';
    return raw.includes(name) ? value : escapeHtml(value);
  });
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The html panel a new bin starts with. */
export function starterHtml(): string {
  return template('starter.html');
}

/** The editor page, with `data` as JSON for the client. */
export function editorPage(data: EditorData, title: string): string {
  // JSON inside <script>: escape "<" so a panel holding "</script>" cannot end the element.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  const page = template('editor.html');
  if (!page.includes(`id="${EDITOR_DATA_ID}"`)) throw new Error('templates/editor.html lost its data element');
  const assets = { editorJs: bundles.path('editor.js'), editorCss: bundles.path('editor.css') };
  return fill(page, { root: data.root, title, data: json, ...assets }, ['data']);
}

/** The embed page; `tabs` and `panels` are markup made by embed-page.ts, everything else is escaped. */
export function embedTemplate(values: Record<'root' | 'title' | 'name' | 'editUrl' | 'outputUrl' | 'tabs' | 'panels', string>): string {
  return fill(template('embed.html'), { ...values, embedPageJs: bundles.path('embed-page.js') }, ['tabs', 'panels']);
}

const TITLES: Record<number, string> = { 400: 'Bad request', 403: 'Forbidden', 404: 'Not found', 413: 'Too large' };

/**
 * A 403 page asks for the key: a GET form to this same address, whose ?api_key= the server turns
 * into a session cookie and a redirect back here without it.
 */
const KEY_FORM =
  '<form method="get"><label>API key <input type="password" name="api_key" autocomplete="off" required></label> ' +
  '<button>Open</button></form>';

/** The HTML error page of the page routes (the API answers JSON). */
export function errorPage(status: number, message: string, root: string): string {
  const title = TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'Error');
  const text = status === 404 ? 'There is no bin, revision or page at this address.' : message;
  const keyForm = status === 403 ? KEY_FORM : '';
  return fill(template('error.html'), { status: String(status), title, message: text, root, keyForm }, ['keyForm']);
}

/** The relative path from a request path to the root: "/" → "./", "/abc" → "./", "/abc/2/edit" → "../../". */
export function rootFrom(path: string): string {
  const depth = path.split('/').length - 2;
  return depth > 0 ? '../'.repeat(depth) : './';
}

/** The bin list page; `content`, `sortFields` and `note` are markup made by ../pages/list-page.ts, the rest is escaped. */
export function listTemplate(values: Record<'root' | 'title' | 'q' | 'maxFilter' | 'sortFields' | 'note' | 'content', string>): string {
  return fill(template('list.html'), { ...values, listJs: bundles.path('list-page.js') }, ['content', 'sortFields', 'note']);
}
