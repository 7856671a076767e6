import type { Context } from 'koa';
import { captureScript } from '../../shared/capture.js';
import { panesFromQuery, type Pane } from '../../shared/panel-list.js';
import type { Compiler } from '../compile/compiler.js';
import { embedTemplate, escapeHtml } from '../assets/page-templates.js';
import { renderOutput } from './render.js';
import { EMBED_CSP } from '../config/security-headers.js';
import type { StoredRevision } from '../store/store.js';

/** What an embed shows when its address names no panels: the output alone, as JS Bin's embeds did. */
const DEFAULT_PANES: Pane[] = ['output'];

const TITLES: Record<Pane, string> = { html: 'HTML', css: 'CSS', javascript: 'JavaScript', console: 'Console', output: 'Output' };

/** The output's console records go to the embed page, which lists them in its console panel. */
const CAPTURE = captureScript("function (record) { parent.postMessage(record, '*'); }", 'javascript.js');

export type EmbedOptions = { root: string; editUrl: string; outputUrl: string; client?: string };

/** `/:bin/embed?html,js,output`: a read-only view of the chosen panels beside the bin's output. */
export async function sendEmbed(ctx: Context, revision: StoredRevision, compiler: Compiler, options: EmbedOptions) {
  const panes = panesFromQuery(ctx.querystring) ?? DEFAULT_PANES;
  // A console needs the output running, shown or not.
  const hiddenOutput = panes.includes('console') && !panes.includes('output');
  const shown = hiddenOutput ? [...panes, 'output' as const] : panes;
  const sections = await Promise.all(shown.map((pane) => section(pane, revision, compiler, options.client)));
  if (hiddenOutput) sections[sections.length - 1] = sections.at(-1)!.replace('<section ', '<section hidden ');
  ctx.set('Content-Security-Policy', EMBED_CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'html';
  ctx.body = embedTemplate({
    root: options.root,
    title: `${revision.bin}/${revision.rev} · snippetkit`,
    name: `${revision.bin}/${revision.rev}`,
    editUrl: options.editUrl,
    outputUrl: options.outputUrl,
    panels: sections.join(''),
  });
}

async function section(pane: Pane, revision: StoredRevision, compiler: Compiler, client?: string): Promise<string> {
  const head = `<section class="panel" data-pane="${pane}"><h2>${TITLES[pane]}</h2>`;
  if (pane === 'output') {
    const page = await renderOutput(revision, compiler, { prelude: CAPTURE, client });
    const sandbox = 'allow-scripts allow-modals allow-forms allow-popups';
    return `${head}<iframe title="Output" sandbox="${sandbox}" srcdoc="${escapeHtml(page)}"></iframe></section>`;
  }
  if (pane === 'console') return `${head}<ol id="console-log" aria-label="Console"></ol></section>`;
  return `${head}<pre tabindex="0"><code>${escapeHtml(revision[pane])}</code></pre></section>`;
}
