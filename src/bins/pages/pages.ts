import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { HttpError } from '../../http/errors.js';
import type { EditorData } from '../../shared/editor-data.js';
import { parseRev } from '../api/read.js';
import { checkRead, privateReader, readToken, TOKEN_PARAM } from '../auth/auth.js';
import { apiMode, type BinConfig } from '../config/config.js';
import { normalizeId } from '../addresses/ids.js';
import { sendEmbed } from './embed-page.js';
import { editorPage, rootFrom } from '../assets/page-templates.js';
import { EDITOR_PATHS, OUTPUT_PATHS, PAGE_ROUTER, pageAddress, routeParams, type PageAddress } from '../addresses/page-paths.js';
import { applyOutputResponse, outputResponse } from '../api/output-settings.js';
import { outputKey, type PageCache } from './page-cache.js';
import { renderOutput, renderPage, renderPanel, type OutputOptions, type RawPanel } from './render.js';
import type { Compiler } from '../compile/compiler.js';
import type { LiveHub } from '../live/hub.js';
import { followScript } from '../live/script.js';
import { binClaimScript } from '../../shared/bin-claim.js';
import { setEditorHeaders, setOutputHeaders, type Framing } from '../config/security-headers.js';
import type { BinStore, StoredRevision } from '../store/store.js';
import type { Settings } from '../engines/records.js';
import type { MockTokens } from '../../server/mock-token.js';
import { builtInStart, startingPoint } from '../api/template-routes.js';

export type PagesOptions = {
  store: BinStore;
  compiler: Compiler;
  live: LiveHub;
  config: BinConfig;
  /** Who may frame output pages (config output.frameAncestors). */
  framing: Framing;
  /** Rendered output and source pages, shared with the fast path (fast-pages.ts). */
  pages: PageCache;
  /** For the editor's key dialog: how to find a key the server made itself. */
  keyHint?: string;
  /** With private mocks (`serve --private-mocks`): tokens for a page's calls to /endpoint/. */
  mockTokens?: MockTokens;
};

/** Cache-Control of a page made of a revision alone: `fixed` when it is a numbered revision's. */
export const pageCaching = (fixed: boolean): string => (fixed ? 'public, max-age=31536000, immutable' : 'no-cache');

type Route = PageAddress & { extra: string | undefined };
type Handler = (ctx: Context, route: Route) => Promise<void>;

const PANEL_TYPES: Record<RawPanel, string> = { css: 'css', javascript: 'js' };
const EXTENSIONS: Record<string, RawPanel> = { css: 'css', js: 'javascript' };

/**
 * The editor and output routes (docs/bin-api.md § Pages); everything else passes on. Every page of a
 * bin is a read of it: the read guard runs before the bin is looked up, so a refusal tells nothing.
 */
/** What the editor says when nobody can save here (EditorData.readOnly). */
const READ_ONLY =
  'This server saves nothing: it has no API key and takes no saves without one. To save, restart it with ' +
  'SNIPPETKIT_OWNERSHIP_API_KEY=<key>, or with SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE=true to let anyone save; ' +
  'on 127.0.0.1 it makes a key of its own unless started with --no-generated-key.';

export function createPages({ store, compiler, live, config, framing, pages, keyHint, mockTokens }: PagesOptions): Middleware {
  const mode = apiMode(config);
  // What every editor page says about saving here: nobody can, or how to find the key.
  const saving = mode === 'read-only' || mode === 'closed' ? { readOnly: READ_ONLY } : keyHint ? { keyHint } : {};
  async function load(ctx: Context, route: Route): Promise<StoredRevision> {
    const bin = normalizeId(route.bin);
    checkRead(ctx, config, bin);
    const revision = bin && (await store.get(bin, parseRev(route.rev)));
    if (!revision) throw new HttpError(404, 'not found');
    return revision;
  }

  /** `load` for a page made of the revision alone (output, panels, source, embed): cacheable as such. */
  async function loadFixed(ctx: Context, route: Route): Promise<StoredRevision> {
    const revision = await load(ctx, route);
    caching(ctx, route);
    return revision;
  }

  /**
   * With private mocks, a token for the page's calls to /endpoint/ when its reader showed the key, the
   * session or the bin's read capability (not merely open reads: those let anyone in). Such a page is
   * no longer the same for everyone, nor for long: no shared or lasting cache may keep it.
   */
  function mockTokenFor(ctx: Context, revision: StoredRevision): string | undefined {
    if (!mockTokens || !privateReader(ctx, config, revision.bin)) return undefined;
    ctx.set('Cache-Control', 'private, no-store');
    return mockTokens.mint(`${revision.bin}/${revision.rev}`);
  }

  /**
   * A numbered revision never changes, so its pages may be kept for a year; the latest and `?live` change
   * with every save and are revalidated (the ETag makes that a 304). Private answers keep their no-store.
   */
  function caching(ctx: Context, route: Route): void {
    if (ctx.response.get('Cache-Control')) return;
    ctx.set('Cache-Control', pageCaching(parseRev(route.rev) !== undefined && ctx.query.live === undefined));
  }

  /** A reader who may not read bins (when reads need the key) may not read the template either. */
  function mayRead(ctx: Context): boolean {
    try {
      checkRead(ctx, config);
      return true;
    } catch (err) {
      if (err instanceof HttpError && err.status === 403) return false;
      throw err;
    }
  }

  // `/` stays open to everyone; it starts from the server's template for those who may read it.
  const newEditor = async (ctx: Context): Promise<void> => {
    const start = mayRead(ctx) ? await startingPoint(store) : builtInStart();
    const data: EditorData = {
      root: './',
      bin: null,
      rev: null,
      panels: { html: start.html, css: start.css, javascript: start.javascript },
      settings: start.settings,
      revisions: [],
      ...saving,
    };
    setEditorHeaders(ctx);
    ctx.type = 'html';
    ctx.body = editorPage(data, 'snippetkit');
  };

  const editor: Handler = async (ctx, route) => {
    const revision = await load(ctx, route);
    const data: EditorData = {
      ...(route.extra === 'watch' && { watch: true }),
      root: rootFrom(ctx.path),
      bin: revision.bin,
      rev: revision.rev,
      panels: { html: revision.html, css: revision.css, javascript: revision.javascript },
      settings: withoutMocks(revision.settings),
      revisions: await store.revisions(revision.bin),
      ...saving,
    };
    setEditorHeaders(ctx);
    ctx.type = 'html';
    ctx.body = editorPage(data, `${revision.bin}/${revision.rev} · snippetkit`);
  };

  const output: Handler = async (ctx, route) => {
    const revision = await loadFixed(ctx, route);
    // /quiet and ?quiet (JS Bin took both): the bin's page with nothing of ours in it.
    const quiet = route.extra === 'quiet' || ctx.query.quiet !== undefined;
    // The edit link follows the address: a numbered revision edits that one, /:bin and /latest the latest.
    const named = parseRev(route.rev) !== undefined;
    const root = rootFrom(ctx.path);
    // When reads need the key, the page's own requests (and its edit link, followed from an opaque
    // origin) carry its bin's read capability instead of a cookie.
    const token = readToken(config, revision.bin);
    const mockToken = quiet ? undefined : mockTokenFor(ctx, revision);
    const options = (): OutputOptions => {
      if (quiet) return { bare: true, client: ctx.ip };
      const capability = token ? `?${TOKEN_PARAM}=${token}` : '';
      const editUrl = `${root}${revision.bin}${named ? `/${revision.rev}` : ''}/edit${capability}`;
      const follow = followScript({ bin: revision.bin, rev: named ? revision.rev : undefined, root, token });
      // Its calls to /endpoint/… name the bin in the mock server's request log (src/shared/bin-claim.ts).
      const prelude = `${follow}\n${binClaimScript(`${revision.bin}/${revision.rev}`, `${root}endpoint/`, mockToken)}`;
      return { editUrl, prelude, client: ctx.ip };
    };
    if (ctx.query.live !== undefined) {
      // ?live: the panels the bin's editor last broadcast (a page following it reloads so), else the revision.
      const state = live.state(revision.bin);
      const shown = state ? { ...revision, ...state.panels, settings: { ...revision.settings, processors: state.processors } } : revision;
      sandboxed(ctx, 'html', await renderOutput(shown, compiler, options()), revision.settings);
      return;
    }
    const key = outputKey(revision.bin, revision.rev, { quiet, root, named, token, mockToken });
    const page = await pages.get(key, () => renderPage(revision, compiler, options()));
    sandboxed(ctx, 'html', page.body, revision.settings, page.etag);
  };

  const embed: Handler = async (ctx, route) => {
    const revision = await loadFixed(ctx, route);
    const root = rootFrom(ctx.path);
    // Framed by another site, the page has no session cookie of ours: links carry the read capability.
    const token = readToken(config, revision.bin);
    const capability = token ? `?${TOKEN_PARAM}=${token}` : '';
    const at = `${root}${revision.bin}${parseRev(route.rev) !== undefined ? `/${revision.rev}` : ''}`;
    const urls = { outputUrl: `${at}${capability}`, editUrl: `${at}/edit${capability}` };
    await sendEmbed(ctx, revision, compiler, { root, ...urls, client: ctx.ip, mockToken: mockTokenFor(ctx, revision) });
  };

  const panel: Handler = async (ctx, route) => {
    const revision = await loadFixed(ctx, route);
    const name = EXTENSIONS[route.extra!];
    sandboxed(ctx, PANEL_TYPES[name], await renderPanel(revision, name, compiler, ctx.ip), revision.settings);
  };

  const source: Handler = async (ctx, route) => {
    const revision = await loadFixed(ctx, route);
    const render = () => renderPage(revision, compiler, { client: ctx.ip });
    const page = await pages.get(`${revision.bin}/${revision.rev} source`, render);
    // Our views of the bin's code: sent as 200 without its status and headers, which are its output's.
    if (route.extra === 'download') {
      ctx.attachment(`${revision.bin}.${revision.rev}.html`);
      sandboxed(ctx, 'html', page.body, undefined, page.etag);
    } else {
      sandboxed(ctx, 'text', page.body, undefined, page.etag);
    }
  };

  /**
   * A body made of the bin's own code, sent with the status and headers its `settings` ask for (its
   * output, not our views of its source), then the security headers (setOutputHeaders), which win.
   * `etag` is that of a kept page, so conditionalGet need not hash it again.
   */
  function sandboxed(ctx: Context, type: string, body: string | Buffer, settings?: Settings, etag?: string): void {
    ctx.type = type;
    ctx.body = body;
    if (settings) applyOutputResponse(ctx, outputResponse(settings));
    // A bin's own status has no ETag, so it is never answered with a 304 (conditional.ts).
    if (etag && ctx.status === 200) ctx.etag = etag;
    setOutputHeaders(ctx, framing);
  }

  /** `handler` for a matched route whose bin and revision can be one; `extra` is the route's last word. */
  const on = (handler: Handler, extra: (ctx: Context) => string | undefined) =>
    (ctx: Context, next: Next) => {
      const address = pageAddress(ctx);
      return address ? handler(ctx, { ...address, extra: extra(ctx) }) : next();
    };
  const lastWord = (ctx: Context) => ctx.path.slice(ctx.path.lastIndexOf('/') + 1);

  // Registered in this order: a path several routes match (`/abc/quiet` is also `/:bin/:rev`) goes to
  // the first whose parameters fit.
  const router = new Router(PAGE_ROUTER);
  router.get('/', newEditor);
  router.get(EDITOR_PATHS, on(editor, lastWord));
  const extension = (ctx: Context) => routeParams(ctx).ext;
  // `.js` and `.css` are the panel alone; `.html` is the whole output page, as JS Bin answered it.
  router.get(['/:bin.:ext', '/:bin/:rev.:ext'], (ctx, next) => {
    if (extension(ctx) === 'html') return on(output, extension)(ctx, next);
    return Object.hasOwn(EXTENSIONS, extension(ctx) ?? '') ? on(panel, extension)(ctx, next) : next();
  });
  router.get(['/:bin/source', '/:bin/download', '/:bin/:rev/source', '/:bin/:rev/download'], on(source, lastWord));
  router.get(['/:bin/embed', '/:bin/:rev/embed'], on(embed, lastWord));
  router.get(OUTPUT_PATHS, on(output, lastWord));
  return router.routes() as Middleware;
}

/**
 * The settings the editor starts from, without the endpoint records a save "with mocks" kept
 * (docs/bin-api.md): the editor reads only the processors, and the records may be large.
 */
function withoutMocks(settings: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(settings, 'mocks')) return settings;
  const { mocks: _, ...rest } = settings;
  return rest;
}
