/**
 * /static/embed.js: JS Bin's embed snippet, `<a class="jsbin-embed" href="…/embed?html,output">…</a>` followed
 * by this script, becomes a frame of that embed page in place of the link. A link whose address is not an
 * embed page is left alone. `data-height` (pixels) sets the frame's height. A classic script on other
 * sites' pages: everything stays inside one function, so it adds no global name to theirs.
 */
(() => {
  const DEFAULT_HEIGHT = 300;

  function upgrade(link: HTMLAnchorElement): void {
    const url = new URL(link.href, location.href);
    if (!/\/embed$/.test(url.pathname)) return;
    const frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = link.textContent?.trim() || 'snippetkit';
    frame.className = 'snippetkit-embed';
    const height = Number(link.dataset.height);
    frame.style.cssText = `width:100%;height:${height > 0 ? height : DEFAULT_HEIGHT}px;border:1px solid #ddd;border-radius:3px`;
    frame.loading = 'lazy';
    link.replaceWith(frame);
  }

  function upgradeAll(): void {
    document.querySelectorAll<HTMLAnchorElement>('a.jsbin-embed').forEach(upgrade);
  }

  // The script may come before or after its links, and before the page has finished parsing.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', upgradeAll);
  else upgradeAll();
})();
