import type { Context } from 'koa';
import { captureScript } from '../../shared/capture.js';
import { binClaimScript } from '../../shared/bin-claim.js';
import { panesFromQuery, type Pane } from '../../shared/panel-list.js';
import { LABELS, PANELS, processorsOf, type PanelName, type Processor } from '../../shared/processors.js';
import type { Compiler } from '../compile/compiler.js';
import { embedTemplate, escapeHtml } from '../assets/page-templates.js';
import { renderOutput } from './render.js';
import { EMBED_CSP } from '../config/security-headers.js';
import type { StoredRevision } from '../store/store.js';

const TITLES: Record<Pane, string> = { html: 'HTML', css: 'CSS', javascript: 'JavaScript', console: 'Console', output: 'Output' };

/** The output's console records go to the embed page, which lists them in its console panel. */
const CAPTURE = captureScript("function (record) { parent.postMessage(record, '*'); }", 'javascript.js');

/** The output frame's sandbox: scripts, but an opaque origin (no allow-same-origin), as the editor's preview. */
const SANDBOX = 'allow-scripts allow-modals allow-forms allow-popups';

export type EmbedOptions = {
  root: string;
  editUrl: string;
  outputUrl: string;
  client?: string;
  /** The output's private mocks token, when its reader showed the key, the session or the read capability. */
  mockToken?: string;
};

/**
 * `/:bin/embed?html,js,output`: the panels a JS Bin panel list names as tabs, in the list's order, one shown
 * at a time; the output is the one shown first when it is named. With no list: the code panels that hold
 * something, then the output, shown first (JS Bin showed the output, with the other panels a click away).
 */
export async function sendEmbed(ctx: Context, revision: StoredRevision, compiler: Compiler, options: EmbedOptions) {
  const tabs = panesFromQuery(ctx.querystring, { order: 'query' }) ?? defaultPanes(revision);
  const selected = tabs.includes('output') ? 'output' : tabs[0]!;
  // A console needs the output running, shown or not: without a tab of its own it runs hidden.
  const panes = tabs.includes('output') || !tabs.includes('console') ? tabs : [...tabs, 'output' as const];
  const processors = processorsOf(revision.settings);
  const label = (pane: Pane) => (isPanel(pane) ? LABELS[processors[pane]] : TITLES[pane]);
  const tabList = tabs.map((pane) => tab(pane, label(pane), pane === selected)).join('');
  const panels = await Promise.all(
    panes.map(async (pane) => {
      const body = await panelBody(pane, revision, processors, compiler, options);
      if (!tabs.includes(pane)) return `<section class="panel" data-pane="${pane}" hidden>${body}</section>`;
      const shown = pane === selected ? '' : ' hidden';
      const attributes = `id="panel-${pane}" role="tabpanel" aria-labelledby="tab-${pane}"`;
      return `<section class="panel" data-pane="${pane}" ${attributes}${shown}>${body}</section>`;
    }),
  );
  ctx.set('Content-Security-Policy', EMBED_CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'html';
  ctx.body = embedTemplate({
    root: options.root,
    title: `${revision.bin}/${revision.rev} · snippetkit`,
    name: `${revision.bin}/${revision.rev}`,
    editUrl: options.editUrl,
    outputUrl: options.outputUrl,
    tabs: tabList,
    panels: panels.join(''),
  });
}

function defaultPanes(revision: StoredRevision): Pane[] {
  return [...PANELS.filter((panel) => revision[panel].trim() !== ''), 'output'];
}

const isPanel = (pane: Pane): pane is PanelName => (PANELS as string[]).includes(pane);

/** A tab of the tablist; only the selected one is in the Tab order (the arrow keys move between them). */
function tab(pane: Pane, label: string, selected: boolean): string {
  const state = selected ? 'aria-selected="true" tabindex="0"' : 'aria-selected="false" tabindex="-1"';
  return `<button type="button" role="tab" id="tab-${pane}" aria-controls="panel-${pane}" ${state}>${escapeHtml(label)}</button>`;
}

async function panelBody(
  pane: Pane,
  revision: StoredRevision,
  processors: Record<PanelName, Processor>,
  compiler: Compiler,
  { root, client, mockToken }: EmbedOptions,
): Promise<string> {
  if (pane === 'output') {
    // Its calls to /endpoint/… name the bin, as the output page's do (src/shared/bin-claim.ts).
    const claim = binClaimScript(`${revision.bin}/${revision.rev}`, `${root}endpoint/`, mockToken);
    const page = await renderOutput(revision, compiler, { prelude: `${CAPTURE}\n${claim}`, client });
    return `<iframe title="Output" sandbox="${SANDBOX}" srcdoc="${escapeHtml(page)}"></iframe>`;
  }
  if (pane === 'console') return '<ol id="console-log" aria-label="Console" tabindex="0"></ol>';
  const source = revision[pane];
  if (source.trim() === '') return `<p class="empty">This bin has no ${LABELS[processors[pane]]}.</p>`;
  // Highlighted in the browser by src/client/embed/highlight.ts, after the language named here.
  return `<pre tabindex="0"><code data-language="${processors[pane]}">${escapeHtml(source)}</code></pre>`;
}
