import { byId } from './common/dom.js';

type Region = 'main' | 'log';

export type RegionTabs = {
  show(region: Region): void;
  /** The tab's text (`Endpoint`, `Requests`…); its count stays after it. */
  name(text: string, region?: Region): void;
};

/**
 * Below 1100 px the requests region folds under a tab beside the open endpoint (the CSS hides the
 * region not chosen; wider, both show and the tabs are hidden). The requests tab counts the entries
 * of whichever log is showing, so arrivals are seen from the other tab too.
 */
export function createRegionTabs(): RegionTabs {
  const workspace = document.querySelector<HTMLElement>('.workspace')!;
  const tabs: Record<Region, HTMLButtonElement> = { main: byId('tab-main'), log: byId('tab-log') };
  const count = byId('tab-log-count');

  const show = (region: Region) => {
    workspace.dataset.tab = region;
    for (const [name, tab] of Object.entries(tabs)) {
      const selected = name === region;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
    }
  };
  for (const [name, tab] of Object.entries(tabs) as [Region, HTMLButtonElement][]) {
    tab.addEventListener('click', () => show(name));
    tab.addEventListener('keydown', (event) => {
      if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
      event.preventDefault();
      const other: Region = name === 'main' ? 'log' : 'main';
      const to: Region = event.key === 'Home' ? 'main' : event.key === 'End' ? 'log' : other;
      show(to);
      tabs[to].focus();
    });
  }

  const recount = () => {
    const visible = byId('log').hidden ? byId('unmatched-requests') : byId('requests');
    const n = visible.childElementCount;
    count.textContent = String(n);
    count.hidden = n === 0;
  };
  const observer = new MutationObserver(recount);
  for (const id of ['requests', 'unmatched-requests']) observer.observe(byId(id), { childList: true });
  observer.observe(byId('log'), { attributes: true, attributeFilter: ['hidden'] });

  show('main');
  return {
    show,
    name(text, region = 'log') {
      tabs[region].firstChild!.textContent = `${text} `;
    },
  };
}
