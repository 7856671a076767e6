/**
 * The embed page's tabs (WAI-ARIA's tabs pattern, with selection following focus): a click or the arrow
 * keys, Home and End select a tab and show its panel. The server marks the first selection, so the page
 * reads right before this runs; only the selected tab is in the Tab order.
 */
export function startTabs(list: HTMLElement): void {
  const tabs = [...list.querySelectorAll<HTMLElement>('[role="tab"]')];

  function select(tab: HTMLElement): void {
    for (const each of tabs) {
      const on = each === tab;
      each.setAttribute('aria-selected', String(on));
      each.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(each.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !on;
    }
    reveal(tab);
  }

  // The list is positioned (templates/embed.html), so offsets are within it. Not scrollIntoView: inside a frame it would scroll the page that frames us as well.
  function reveal(tab: HTMLElement): void {
    if (tab.offsetLeft < list.scrollLeft) list.scrollLeft = tab.offsetLeft;
    else if (tab.offsetLeft + tab.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = tab.offsetLeft + tab.offsetWidth - list.clientWidth;
    }
  }

  list.addEventListener('click', (event) => {
    const tab = (event.target as Element).closest<HTMLElement>('[role="tab"]');
    if (tab) select(tab);
  });

  list.addEventListener('keydown', (event) => {
    const at = tabs.indexOf(event.target as HTMLElement);
    if (at < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves: Record<string, number> = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const tab = tabs[(to + tabs.length) % tabs.length]!;
    select(tab);
    tab.focus();
  });

  const selected = tabs.find((tab) => tab.getAttribute('aria-selected') === 'true');
  if (selected) reveal(selected);
}
