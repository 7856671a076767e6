import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { Command } from 'commander';
import { PANELS, type PanelName } from '../../shared/processors.js';
import { callApi, errorMessage, notOurApi, type ClientOptions } from '../common/client.js';
import { clientContext } from '../common/client-flags.js';
import { CliError, EXIT } from '../common/errors.js';
import { readText } from '../common/read-input.js';
import { safeLine } from '../common/terminal-text.js';
import type { SaveMocks } from './place-mocks.js';
import { mocksFileBeside } from './with-mocks.js';

export type SaveFlags = { html?: string; js?: string; css?: string; bin?: string; withMocks?: boolean };

type Panel = PanelName;

const PANEL_OF_EXT: Record<string, Panel> = { '.html': 'html', '.htm': 'html', '.js': 'javascript', '.mjs': 'javascript', '.css': 'css' };
const SIBLING_EXT: Record<Panel, string> = { html: '.html', javascript: '.js', css: '.css' };

/** Which file fills which panel: flags first, then the positional file, then its same-named siblings. */
export function pickFiles(file: string | undefined, flags: SaveFlags): Partial<Record<Panel, string>> {
  const picked: Partial<Record<Panel, string>> = {};
  if (flags.html) picked.html = flags.html;
  if (flags.js) picked.javascript = flags.js;
  if (flags.css) picked.css = flags.css;
  if (file === '-') {
    if (picked.html) throw new CliError('give the html either as the file argument or with --html, not both', EXIT.usage);
    picked.html = '-';
  } else if (file) {
    const ext = extname(file).toLowerCase();
    const panel = PANEL_OF_EXT[ext];
    if (!panel) throw new CliError(`${file}: cannot tell its panel from "${ext || 'no extension'}"; use --html, --js or --css`, EXIT.usage);
    if (picked[panel]) throw new CliError(`${file} and --${panel === 'javascript' ? 'js' : panel} both give the ${panel} panel`, EXIT.usage);
    picked[panel] = file;
    const stem = file.slice(0, file.length - ext.length);
    for (const other of PANELS) {
      const sibling = stem + SIBLING_EXT[other];
      if (!picked[other] && existsSync(sibling)) picked[other] = sibling;
    }
  }
  if (Object.keys(picked).length === 0) {
    throw new CliError('nothing to save: give FILE.html (or .js/.css), or --html/--js/--css FILE', EXIT.usage);
  }
  if (Object.values(picked).filter((p) => p === '-').length > 1) {
    throw new CliError('only one panel can come from standard input', EXIT.usage);
  }
  return picked;
}

export async function save(file: string | undefined, flags: SaveFlags, command: Command): Promise<void> {
  const { client, out } = clientContext(command, 'bin');
  const picked = pickFiles(file, flags);
  const form: Record<string, string> = {};
  for (const [panel, path] of Object.entries(picked)) form[panel] = await readText(path);
  const named = file ?? picked.html ?? picked.javascript;
  const beside = !flags.withMocks && mocksFileBeside(named);
  if (beside) out.note(`${basename(beside)} is beside it: pass --with-mocks to save its endpoints with the bin`);
  let mocks: SaveMocks | undefined;
  if (flags.withMocks) {
    const { mocksForSave } = await import('./place-mocks.js');
    mocks = await mocksForSave(client, named, [form.html ?? '', form.javascript ?? ''], out);
    form.mocks = JSON.stringify(mocks.records);
  }

  const path = flags.bin ? `api/${encodeURIComponent(flags.bin)}/save` : 'api/save';
  let saved: Saved;
  try {
    saved = await postSave(client, path, form, flags.bin);
  } catch (err) {
    throw mocks ? await mocks.undo(err) : err;
  }
  out.note(`took ${Object.entries(picked).map(([panel, path]) => `${panel} from ${path === '-' ? 'standard input' : basename(path)}`).join(', ')}`);
  if (mocks) {
    const from = mocks.file ? ` from ${basename(mocks.file)}` : '';
    const created = mocks.created.length > 0 ? `; created ${mocks.created.join(', ')} on ${client.server}` : '';
    out.note(`with the mocks ${mocks.records.map((r) => r.name).join(', ')}${from}${created}`);
  }
  const withMocks = mocks && { mocks: mocks.records.map((r) => r.name), created: mocks.created };
  out.result(safeLine(saved.url), { ...saved, files: picked, ...withMocks });
}

/** What a save answers, as the commands print it. */
export type Saved = { url: string; edit: string; bin: string; snapshot: number; summary: unknown };

/** POSTs a save (`api/save` or `api/BIN/save`) and reads its answer; `bin` names the bin in a 404's message. */
export async function postSave(client: ClientOptions, path: string, form: Record<string, string>, bin?: string): Promise<Saved> {
  const { status, body } = await callApi(client, 'POST', path, { form });
  if (status === 404) throw new CliError(`${bin} cannot be a bin id (letters, digits, - and _ only)`, EXIT.usage);
  if (status !== 200) throw new CliError(`the bin server refused the save: ${errorMessage(body) ?? `status ${status}`}`, EXIT.refused);
  const saved = body as { url?: unknown; snapshot?: unknown; summary?: unknown };
  if (typeof saved?.url !== 'string' || typeof saved.snapshot !== 'number') {
    throw notOurApi(client, 'its save answer has no url and snapshot');
  }
  const url = `${client.server}/${saved.url}/${saved.snapshot}`;
  return { url, edit: `${url}/edit`, bin: saved.url, snapshot: saved.snapshot, summary: saved.summary };
}
