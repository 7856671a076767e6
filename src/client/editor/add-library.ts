import type { CodePanes } from './code-panes.js';
import { LIBRARIES } from '../../shared/library-list.js';
import { libraryInsertion, searchLibraries, urlLibrary, type Library } from '../../shared/libraries.js';
import { placeMenu } from '../common/place-menu.js';
import { say } from '../common/status.js';

/**
 * The HTML pane's "Add library" button: a popover with a search box over `LIBRARIES` (a combobox: the
 * focus stays in the box, Up and Down choose, Enter adds, Escape closes), which also takes any https
 * address. A pick inserts the tags into the HTML pane as one edit (Ctrl/Cmd+Z takes it back), never a
 * second copy of a tag.
 */
export function wireAddLibrary(panes: CodePanes): void {
  const button = document.getElementById('add-library') as HTMLButtonElement;
  const menu = document.getElementById('library-menu')!;
  const search = document.getElementById('library-search') as HTMLInputElement;
  const list = document.getElementById('library-list')!;
  const empty = document.getElementById('library-empty')!;
  let shown: { library: Library; option: HTMLElement }[] = [];
  let active = 0;

  function add(library: Library): void {
    menu.hidePopover();
    const insertion = libraryInsertion(panes.read().html, library);
    if (!insertion) return say(`${library.name} is already in the HTML.`);
    panes.insert('html', insertion.at, insertion.text);
    say(`Added ${library.name} to the HTML.`);
  }

  function option(library: Library, text: string): HTMLElement {
    const item = document.createElement('li');
    item.setAttribute('role', 'option');
    item.id = `library-${shown.length}`;
    item.textContent = text;
    item.title = library.tags.map((tag) => /(?:src|href)="([^"]+)"/.exec(tag)![1]).join('\n');
    item.addEventListener('click', () => add(library));
    shown.push({ library, option: item });
    return item;
  }

  function choose(at: number): void {
    shown[active]?.option.setAttribute('aria-selected', 'false');
    active = at;
    const chosen = shown[active];
    if (!chosen) return search.removeAttribute('aria-activedescendant');
    chosen.option.setAttribute('aria-selected', 'true');
    search.setAttribute('aria-activedescendant', chosen.option.id);
    chosen.option.scrollIntoView({ block: 'nearest' });
  }

  // An address typed in is an entry of its own, first; words filter the list by name and keywords.
  function render(): void {
    shown = [];
    const query = search.value;
    const typed = urlLibrary(query);
    const items: HTMLElement[] = [];
    if (typed && 'library' in typed) {
      const kind = typed.library.tags[0]!.startsWith('<link') ? 'stylesheet' : 'script';
      items.push(option(typed.library, `Add ${kind}: ${typed.library.name}`));
    }
    if (!typed) for (const library of searchLibraries(LIBRARIES, query)) items.push(option(library, library.name));
    for (const item of items) item.setAttribute('aria-selected', 'false');
    list.replaceChildren(...items);
    list.hidden = items.length === 0;
    search.setAttribute('aria-expanded', String(items.length > 0));
    empty.classList.toggle('refused', typed !== undefined && 'refused' in typed);
    empty.textContent =
      typed && 'refused' in typed
        ? typed.refused
        : items.length === 0
          ? `No library matches "${query.trim()}". Paste an https:// address to add any script or stylesheet.`
          : '';
    choose(0);
  }

  search.addEventListener('input', render);
  search.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (shown.length > 0) choose((active + (event.key === 'ArrowDown' ? 1 : -1) + shown.length) % shown.length);
    } else if (event.key === 'Escape') {
      // A search field's own Escape would only clear it: here it closes the list, as a menu's does.
      event.preventDefault();
      menu.hidePopover();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = shown[active];
      if (chosen) add(chosen.library);
    }
  });
  // It starts afresh each time it opens. On beforetoggle, which runs within the click that opens it: the
  // toggle event comes a task later, when text typed at once (input runs first on a busy page) would be wiped.
  menu.addEventListener('beforetoggle', (event) => {
    if ((event as ToggleEvent).newState !== 'open') return;
    search.value = '';
    render();
  });
  // The popover opens in the top layer, under its button and inside the window.
  menu.addEventListener('toggle', (event) => {
    if ((event as ToggleEvent).newState !== 'open') return;
    placeMenu(menu, button);
    search.focus();
  });
}
