// Prism beside us on the public OpenAPI descriptions of the corpus (issue 28; docs/mock-api.md, "Real
// descriptions"): per document, each server's start to listening, its peak RSS, and the share of operations
// answering their documented success with a body their own schema (or examples) allows, judged the way
// the corpus test judges ours (test/mocks/sources/corpus/, through tsx). Prism 5.14.2 (the last to run on
// Node 20) is installed into bench/.cache/prism on the first run, so this group needs the network once;
// the corpus must be where the corpus test finds it. Without either, the group says why and gives no row.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { parse } from 'yaml';
import { CLI, log } from './lib.js';

const PRISM_VERSION = '5.14.2';
const CACHE = fileURLToPath(new URL('./.cache/prism/', import.meta.url));
const PRISM = join(CACHE, 'node_modules/@stoplight/prism-cli/dist/index.js');
// A document neither server has loaded by then is counted as not loaded.
const LOAD_LIMIT_MS = Number(process.env.BENCH_PRISM_LOAD_MS ?? 120_000);

export async function run() {
  const corpus = await tsImport('../test/mocks/sources/corpus/documents.ts', import.meta.url);
  const { corpusOperations } = await tsImport('../test/mocks/sources/corpus/response-schemas.ts', import.meta.url);
  const { askOperation, usageOf } = await tsImport('../test/mocks/sources/corpus/serve-document.ts', import.meta.url);
  if (!existsSync(join(corpus.CORPUS, 'stripe/spec3.json'))) {
    log('prism: no OpenAPI corpus (test/fixtures/openapi-corpus/README.md), no rows');
    return [];
  }
  if (!installPrism()) return [];
  const dir = mkdtempSync(join(tmpdir(), 'snippetkit-bench-prism-'));
  const rows = [];
  try {
    for (const document of corpus.DOCUMENTS) {
      const file = corpus.documentPath(document);
      const operations = await corpusOperations(file);
      // Prism checks every request; ours does with --validate only: both are sent the document's credentials.
      const credentials = credentialsOf(file);
      const ours = await measure(operations, async (port) => ({
        args: [CLI, 'serve-mocks', '--port', String(port), '--data', join(dir, `${rows.length}.sqlite`), '--openapi', file],
        listening: /http:\/\/[\d.]+:\d+/,
        base: `http://127.0.0.1:${port}/endpoint`,
      }), { askOperation, usageOf, credentials });
      const prism = await measure(operations, async (port) => ({
        args: [PRISM, 'mock', '--host', '127.0.0.1', '--port', String(port), file],
        listening: /Prism is listening on/,
        base: `http://127.0.0.1:${port}`,
      }), { askOperation, usageOf, credentials });
      rows.push(row(document.file, operations.length, ours, prism));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/**
 * A header for each security scheme the document declares (a bearer token, an API key in a header,
 * basic credentials), so a server that checks their presence lets the requests through; an API key
 * in a query or a cookie is not sent, and parameters an operation requires are not either.
 */
function credentialsOf(file) {
  const document = parse(readFileSync(file, 'utf8'), { maxAliasCount: -1 });
  const schemes = Object.values(document.components?.securitySchemes ?? document.securityDefinitions ?? {});
  const headers = {};
  for (const scheme of schemes) {
    if (scheme.type === 'apiKey' && scheme.in === 'header') headers[scheme.name.toLowerCase()] = 'key';
    else if (scheme.type === 'http' && /^basic$/i.test(scheme.scheme ?? '')) headers.authorization ??= 'Basic dTpw';
    else if (scheme.type === 'basic') headers.authorization ??= 'Basic dTpw';
    else if (scheme.type !== 'apiKey') headers.authorization ??= 'Bearer token';
  }
  return headers;
}

function installPrism() {
  if (existsSync(PRISM)) return true;
  mkdirSync(CACHE, { recursive: true });
  try {
    log(`prism: installing @stoplight/prism-cli@${PRISM_VERSION} into bench/.cache/prism`);
    execFileSync('npm', ['install', '--prefix', CACHE, '--no-save', '--no-audit', '--no-fund', `@stoplight/prism-cli@${PRISM_VERSION}`], { stdio: 'ignore' });
    return existsSync(PRISM);
  } catch (err) {
    log(`prism: could not install Prism (${err.message.split('\n')[0]}), no rows`);
    return false;
  }
}

/** One server on one document: start to listening, peak RSS, and the operations that missed (or why it never listened). */
async function measure(operations, how, { askOperation, usageOf, credentials }) {
  const port = await freePort();
  const { args, listening, base } = await how(port);
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    const ready = await new Promise((resolve) => {
      let out = '';
      const timer = setTimeout(() => resolve(`not listening after ${LOAD_LIMIT_MS} ms`), LOAD_LIMIT_MS);
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (listening.test(out)) resolve(true);
      });
      child.stderr.on('data', (chunk) => (out += chunk));
      exited.then((code) => resolve(`exited (${code}): ${out.slice(-300)}`));
    });
    if (ready !== true) return { failed: ready };
    const loadMs = performance.now() - started;
    const { peakMb } = usageOf(child.pid);
    let valid = 0;
    let refused = 0;
    const queue = [...operations];
    const worker = async () => {
      for (let op = queue.shift(); op; op = queue.shift()) {
        const miss = await askOperation(base, op, credentials);
        if (miss === undefined) valid++;
        // The requests carry no credentials, parameters or body: a server that checks requests (Prism
        // always does) refuses those the operation needs before it answers at all.
        else if (/^status (400|401|403|415|422),/.test(miss)) refused++;
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return { loadMs, peakMb: Math.max(peakMb, usageOf(child.pid).peakMb), valid, refused };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  }
}

function row(file, operations, ours, prism) {
  const cells = (name, run) =>
    run.failed
      ? { [`${name} load ms`]: 'failed', [`${name} MB`]: '-', [`${name} valid`]: run.failed.split('\n')[0].slice(0, 40), [`${name} refused`]: '-' }
      : {
          [`${name} load ms`]: Math.round(run.loadMs),
          [`${name} MB`]: Math.round(run.peakMb),
          // Of the operations it answered rather than refused for the request.
          [`${name} valid`]: `${run.valid}/${operations - run.refused}`,
          [`${name} refused`]: run.refused,
        };
  return { benchmark: `prism: ${file}`, ...cells('ours', ours), ...cells('prism', prism) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
