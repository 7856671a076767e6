/** Small DOM helpers shared by the page's parts. */

/** The element with `id`; the page's HTML has them all, so a missing one is a bug worth failing on. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element as T;
}

/** A new element with text content or children, and attributes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** A local time with seconds and milliseconds: webhook calls often come in bursts. */
export function clock(iso: string): string {
  const date = new Date(iso);
  const ms = String(date.getMilliseconds()).padStart(3, '0');
  return `${date.toLocaleTimeString(undefined, { hour12: false })}.${ms}`;
}

/** "3 min ago"-style age for the list; the exact time is in the title. */
export function age(iso: string | null, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

/** A body as text, indented when it is JSON. */
export function pretty(body: string): string {
  if (body.trim() === '') return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** Name/value pairs as a two-column definition list. */
export function headerList(pairs: Iterable<[string, string]>): HTMLDListElement {
  const list = el('dl', { class: 'headers' });
  for (const [name, value] of pairs) list.append(el('dt', {}, name), el('dd', {}, value));
  return list;
}
