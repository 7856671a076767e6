import type { Middleware } from 'koa';
import { HttpError } from '../../http/errors.js';
import { checkOwner } from '../auth/auth.js';
import { SORT_KEYS, type BinRow, type Sort, type SortKey } from '../engines/listing.js';
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
export const BAD_SORT = 'sort must be name, updated or revisions';
export const BAD_ORDER = 'order must be asc or desc';

/** Each column's first direction: names A to Z, the last saved and the most revised first. */
const FIRST_ORDER: Record<SortKey, Sort['order']> = { name: 'asc', updated: 'desc', revisions: 'desc' };

/** What the page was asked for, for its links to keep. */
type View = { q: string; sort: Sort; page: number };

export type ListPageOptions = { store: BinStore; config: BinConfig };

/** `GET /list`, "My bins" (docs/bin-api.md § My bins): every bin, sorted, paged and filterable, each deletable. */
export function listPage({ store, config }: ListPageOptions): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/list' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    checkOwner(ctx, config);
    const q = first(ctx.query.q)?.trim() ?? '';
    if (q.length > MAX_FILTER) throw new HttpError(400, FILTER_TOO_LONG);
    const rawPage = first(ctx.query.page) ?? '1';
    if (!PAGE.test(rawPage)) throw new HttpError(400, BAD_PAGE);
    const view: View = { q, sort: sortOf(first(ctx.query.sort), first(ctx.query.order)), page: Number(rawPage) };

    const { rows, total } = await store.page({ q, sort: view.sort, offset: (view.page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
    // A page past the last is no page (page 1 is always one, empty or not).
    if (rows.length === 0 && view.page > 1) throw new HttpError(404, 'not found');
    const root = rootFrom(ctx.path);
    // Deleting needs the key or anonymous writes; whoever sees this page with a key set has its session.
    const deletable = Boolean(config.ownership.api_key) || config.api.allowAnonymousReadWrite;
    const content =
      total === 0
        ? emptyState(q, root)
        : `${table(rows, root, view, deletable)}\n${pager(view, Math.ceil(total / PAGE_SIZE), total)}`;
    setListHeaders(ctx);
    if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'html';
    ctx.body = listTemplate({
      root,
      title: 'My bins · snippetkit',
      q,
      maxFilter: String(MAX_FILTER),
      sortFields: hiddenSort(view.sort),
      note: deletable || total === 0 ? '' : READ_ONLY_NOTE,
      content,
    });
  };
}

const READ_ONLY_NOTE =
  '<p class="note" id="read-only">This server is read-only, so bins cannot be deleted here. Start it with an API key ' +
  '(<code>ownership.api_key</code>) to delete them.</p>';

/** The order asked for: a column, and a direction (that column's first when left out). */
function sortOf(by: string | undefined, order: string | undefined): Sort {
  if (by !== undefined && !(SORT_KEYS as readonly string[]).includes(by)) throw new HttpError(400, BAD_SORT);
  if (order !== undefined && order !== 'asc' && order !== 'desc') throw new HttpError(400, BAD_ORDER);
  const key = (by ?? 'updated') as SortKey;
  return { by: key, order: order ?? FIRST_ORDER[key] };
}

/** The address of a view of the list: "list?…", relative to /list, so it also works behind a path prefix. */
function listLink({ q, sort, page }: View): string {
  const query = new URLSearchParams({
    ...(q && { q }),
    ...(sort.by !== 'updated' && { sort: sort.by }),
    ...(sort.order !== FIRST_ORDER[sort.by] && { order: sort.order }),
    ...(page > 1 && { page: String(page) }),
  }).toString();
  return `list${query ? `?${query}` : ''}`;
}

/** The filter form keeps the order. */
function hiddenSort(sort: Sort): string {
  const fields = [];
  if (sort.by !== 'updated') fields.push(`<input type="hidden" name="sort" value="${sort.by}">`);
  if (sort.order !== FIRST_ORDER[sort.by]) fields.push(`<input type="hidden" name="order" value="${sort.order}">`);
  return fields.join('');
}

/** A repeated parameter counts once, by its first value. */
function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function emptyState(q: string, root: string): string {
  if (q) return `<p class="empty">No bins match “${escapeHtml(q)}”. <a href="list">Show every bin</a></p>`;
  return `<p class="empty">No bins yet. <a href="${escapeHtml(root)}">Start a new bin</a> and save it to see it here.</p>`;
}

/** A sortable column's header: a link to the other direction (or the column's first), its state in aria-sort. */
function header(label: string, by: SortKey, view: View, className = ''): string {
  const active = view.sort.by === by;
  const order = active ? (view.sort.order === 'asc' ? 'desc' : 'asc') : FIRST_ORDER[by];
  const href = escapeHtml(listLink({ q: view.q, sort: { by, order }, page: 1 }));
  const state = active ? ` aria-sort="${view.sort.order === 'asc' ? 'ascending' : 'descending'}"` : '';
  const arrow = active ? `<span class="arrow" aria-hidden="true">${view.sort.order === 'asc' ? '▲' : '▼'}</span>` : '';
  return `<th scope="col"${className ? ` class="${className}"` : ''}${state}><a href="${href}">${label}${arrow}</a></th>`;
}

function table(rows: BinRow[], root: string, view: View, deletable: boolean): string {
  const body = rows.map((row) => {
    const bin = escapeHtml(row.bin);
    const output = escapeHtml(`${root}${row.bin}`);
    const summary = row.summary ? escapeHtml(row.summary) : '<span class="muted">(empty)</span>';
    const revisions = `${row.revisionCount} ${row.revisionCount === 1 ? 'revision' : 'revisions'}`;
    const remove = deletable
      ? ` <button type="button" class="delete" data-revisions="${escapeHtml(revisions)}" aria-label="Delete ${bin}">Delete</button>`
      : '';
    return (
      `<tr data-bin="${bin}"><td class="bin"><a href="${output}">${bin}</a></td>` +
      `<td class="summary">${summary}</td>` +
      `<td class="saved"><time datetime="${escapeHtml(row.updated)}" title="${escapeHtml(row.updated)}">${escapeHtml(prettyTime(row.updated))}</time></td>` +
      `<td class="count">${row.revisionCount}</td>` +
      `<td class="actions"><a href="${output}" class="output">Output</a> <a href="${output}/edit" class="edit">Edit</a>${remove}</td></tr>`
    );
  });
  return (
    '<table><thead><tr>' +
    header('Bin', 'name', view) +
    '<th scope="col">Summary</th>' +
    header('Last saved', 'updated', view) +
    header('Revisions', 'revisions', view, 'count') +
    '<th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>\n' +
    `<tbody>\n${body.join('\n')}\n</tbody></table>`
  );
}

function pager(view: View, pages: number, total: number): string {
  const link = (to: number, rel: string, text: string) =>
    `<a rel="${rel}" href="${escapeHtml(listLink({ ...view, page: to }))}">${text}</a>`;
  const count = `<span class="total">${total.toLocaleString('en')} ${total === 1 ? 'bin' : 'bins'}</span>`;
  return [
    '<nav class="pages" aria-label="Pages">',
    view.page > 1 ? link(view.page - 1, 'prev', '← Previous') : '',
    `<span>Page ${view.page} of ${pages} · ${count}</span>`,
    view.page < pages ? link(view.page + 1, 'next', 'Next →') : '',
    '</nav>',
  ].join('');
}
