import { writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { callApi, notOurApi, type ClientOptions } from '../common/client.js';
import { clientContext } from '../common/client-flags.js';
import { CliError, EXIT, fileErrorReason } from '../common/errors.js';
import { ensureFolder } from '../common/out-folder.js';
import { formatRecords } from '../common/record-files.js';
import { MOCKS_FILE_SUFFIX } from './with-mocks.js';

export type PullFlags = { out?: string; force?: boolean; stdout?: string; withMocks?: boolean };

const PANELS = [
  { name: 'html', key: 'html', ext: '.html' },
  { name: 'css', key: 'css', ext: '.css' },
  { name: 'js', key: 'javascript', ext: '.js' },
] as const;

type Target = { bin: string; rev?: string; server?: string };

/** `abc`, `abc/2`, or a bin URL (`http://host:3000/abc/2/edit`) on the configured server. */
export function parseTarget(target: string): Target {
  if (/^https?:\/\//i.test(target)) {
    const url = new URL(target);
    const [bin, rev] = url.pathname.split('/').filter(Boolean);
    if (!bin) throw new CliError(`${target} names no bin`, EXIT.usage);
    return { bin, rev: rev && /^\d+$/.test(rev) ? rev : undefined, server: url.origin };
  }
  const [bin, rev, ...rest] = target.split('/');
  if (!bin || rest.length > 0 || (rev !== undefined && !/^(\d+|latest)$/.test(rev))) {
    throw new CliError(`${target} is not BIN or BIN/REV (e.g. rovoqe/2)`, EXIT.usage);
  }
  return { bin, rev };
}

/**
 * The revision `target` names (BIN, BIN/REV or a URL on the configured server) as the API answers it:
 * html, css and javascript are strings. `verb` words the refusal of a URL on another server.
 */
export async function fetchRevision(client: ClientOptions, target: string, verb: string): Promise<{ bin: string; found: Record<string, unknown> }> {
  const { bin, rev, server } = parseTarget(target);
  // the API key goes only to the server the user configured, never to a host named in an argument
  if (server && server !== new URL(client.server).origin) {
    const hint = `pass --server ${server} to ${verb} from it`;
    throw new CliError(`${target} is on ${server}, not on the bin server ${client.server}; ${hint}`, EXIT.usage);
  }
  const path = `api/${encodeURIComponent(bin)}${rev ? `/${rev}` : ''}`;
  const { status, body } = await callApi(client, 'GET', path);
  if (status === 404) {
    const missing = rev ? `bin ${bin} has no revision ${rev}` : `no bin named ${bin}`;
    throw new CliError(`${missing} at ${client.server}`, EXIT.notFound);
  }
  const found = body as Record<string, unknown> | undefined;
  if (status !== 200 || !found || PANELS.some((p) => typeof found[p.key] !== 'string')) {
    throw notOurApi(client, `GET /${path} answered ${status} without html, css and javascript`);
  }
  return { bin, found };
}

export async function pull(target: string, flags: PullFlags, command: Command): Promise<void> {
  const { client, out } = clientContext(command, 'bin');
  const { bin, found } = await fetchRevision(client, target, 'pull');
  const stdoutPanel = flags.stdout && PANELS.find((p) => p.name === flags.stdout || p.key === flags.stdout);
  if (flags.stdout && !stdoutPanel) {
    throw new CliError(`--stdout takes html, css or js, not ${flags.stdout}`, EXIT.usage);
  }
  if (flags.stdout && flags.withMocks) {
    throw new CliError('--stdout prints one panel; --with-mocks writes BIN.mocks.json beside the panels: use one of them', EXIT.usage);
  }
  const snapshot = found.snapshot;

  if (stdoutPanel) {
    process.stdout.write(found[stdoutPanel.key] as string);
    return;
  }
  const dir = resolve(flags.out ?? '.');
  const files = PANELS.filter((p) => found[p.key] !== '').map((p) => ({
    path: join(dir, `${bin}${p.ext}`),
    text: found[p.key] as string,
  }));
  if (flags.withMocks) files.push({ path: join(dir, `${bin}${MOCKS_FILE_SUFFIX}`), text: mocksText(client, bin, found) });
  const existing = files.filter((f) => existsSync(f.path)).map((f) => f.path);
  if (existing.length > 0 && !flags.force) {
    throw new CliError(`would overwrite ${existing.join(', ')}; pass --force to overwrite`, EXIT.file);
  }
  await ensureFolder(dir);
  for (const file of files) {
    try {
      await writeFile(file.path, file.text);
    } catch (err) {
      throw new CliError(`cannot write ${file.path}: ${fileErrorReason(err)}`, EXIT.file);
    }
  }
  if (files.length === 0) out.note(`${bin}/${snapshot} has no content to write`);
  out.result(files.map((f) => f.path).join('\n'), { bin, snapshot, files: files.map((f) => f.path) });
}

// An endpoint name, as the mock server takes it (it becomes no file name here, but a server that sends
// something else is not ours).
const MOCK_NAME = /^[A-Za-z0-9._~-]{1,128}$/;

/**
 * BIN.mocks.json: the revision's mocks (GET /api/BIN/REV's `mocks`) as `snippetkit mock export --out FILE.json`
 * writes endpoints, a list sorted by name, so `mock import` and `save --with-mocks` take it.
 */
function mocksText(client: ClientOptions, bin: string, found: Record<string, unknown>): string {
  const { mocks, snapshot } = found;
  if (mocks === undefined) {
    const hint = 'pull it without --with-mocks, or save it again with --with-mocks on the server that has its endpoints';
    throw new CliError(`${bin}/${String(snapshot)} was saved without mocks; ${hint}`, EXIT.notFound);
  }
  const valid = (m: unknown) => typeof m === 'object' && m !== null && typeof (m as { name?: unknown }).name === 'string' && MOCK_NAME.test((m as { name: string }).name);
  if (!Array.isArray(mocks) || !mocks.every(valid)) throw notOurApi(client, 'its revision has mocks that are not endpoint records');
  const sorted = [...(mocks as { name: string }[])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return formatRecords(sorted, 'json');
}
