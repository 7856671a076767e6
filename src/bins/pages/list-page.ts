import type { Middleware } from 'koa';
import { HttpError } from '../../http/errors.js';
import { checkOwner } from '../auth/auth.js';
import type { BinRow } from '../engines/listing.js';
import type { BinConfig } from '../config/config.js';
import { escapeHtml, listTemplate, rootFrom } from '../assets/page-templates.js';
import { setListHeaders } from '../config/security-headers.js';
import type { BinStore } from '../store/store.js';
import { prettyTime } from '../api/time.js';

/** Bins per page. */
export const PAGE_SIZE = 50;
/** The longest filter accepted: it is matched against every bin, so it is bounded like any anonymous input. */
export const MAX_FILTER = 100;
/** Pages are numbered 1..MAX_PAGE; more digits than that are no page of any store. */
const PAGE = /^[1-9]\d{0,6}$/;

export const FILTER_TOO_LONG = `the filter is longer than ${MAX_FILTER} characters`;
export const BAD_PAGE = 'page must be a whole number from 1';

export type ListPageOptions = { store: BinStore; config: BinConfig };

/** `GET /list`, "My bins" (docs/bin-api.md § My bins): every bin, last saved first, paged and filterable. */
export function listPage({ store, config }: ListPageOptions): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/list' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    checkOwner(ctx, config);
    const q = first(ctx.query.q)?.trim() ?? '';
    if (q.length > MAX_FILTER) throw new HttpError(400, FILTER_TOO_LONG);
    const rawPage = first(ctx.query.page) ?? '1';
    if (!PAGE.test(rawPage)) throw new HttpError(400, BAD_PAGE);
    const page = Number(rawPage);

    const { rows, total } = await store.page({ q, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
    // A page past the last is no page (page 1 is always one, empty or not).
    if (rows.length === 0 && page > 1) throw new HttpError(404, 'not found');
    const root = rootFrom(ctx.path);
    const content =
      total === 0
        ? emptyState(q, root)
        : `${table(rows, root)}\n${pager({ q, page, pages: Math.ceil(total / PAGE_SIZE), total })}`;
    setListHeaders(ctx);
    if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'html';
    ctx.body = listTemplate({ root, title: 'My bins · snippetkit', q, maxFilter: String(MAX_FILTER), content });
  };
}

/** A repeated parameter counts once, by its first value. */
function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function emptyState(q: string, root: string): string {
  if (q) return `<p class="empty">No bins match “${escapeHtml(q)}”. <a href="list">Show every bin</a></p>`;
  return `<p class="empty">No bins yet. <a href="${escapeHtml(root)}">Start a new bin</a> and save it to see it here.</p>`;
}

function table(rows: BinRow[], root: string): string {
  const body = rows.map((row) => {
    const output = escapeHtml(`${root}${row.bin}`);
    const summary = row.summary ? escapeHtml(row.summary) : '<span class="muted">(empty)</span>';
    return (
      `<tr data-bin="${escapeHtml(row.bin)}"><td><a href="${output}">${escapeHtml(row.bin)}</a></td>` +
      `<td class="summary">${summary}</td>` +
      `<td><time datetime="${escapeHtml(row.updated)}" title="${escapeHtml(row.updated)}">${escapeHtml(prettyTime(row.updated))}</time></td>` +
      `<td class="count">${row.revisionCount}</td>` +
      `<td><a href="${output}" class="output">Output</a> <a href="${output}/edit" class="edit">Edit</a></td></tr>`
    );
  });
  return (
    '<table><thead><tr><th>Bin</th><th>Summary</th><th>Last saved</th><th class="count">Revisions</th><th></th></tr></thead>\n' +
    `<tbody>\n${body.join('\n')}\n</tbody></table>`
  );
}

type Pager = { q: string; page: number; pages: number; total: number };

function pager({ q, page, pages, total }: Pager): string {
  const link = (to: number, rel: string, text: string) => {
    const query = new URLSearchParams({ ...(q && { q }), ...(to > 1 && { page: String(to) }) }).toString();
    // "list?…", relative to /list, so it also works behind a path prefix.
    return `<a rel="${rel}" href="${escapeHtml(`list${query ? `?${query}` : ''}`)}">${text}</a>`;
  };
  const count = `${total.toLocaleString('en')} ${total === 1 ? 'bin' : 'bins'}`;
  return [
    '<nav class="pages" aria-label="Pages">',
    page > 1 ? link(page - 1, 'prev', '← Newer') : '',
    `<span>Page ${page} of ${pages} · ${count}</span>`,
    page < pages ? link(page + 1, 'next', 'Older →') : '',
    '</nav>',
  ].join('');
}
