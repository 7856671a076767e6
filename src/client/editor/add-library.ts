import type { CodePanes } from './code-panes.js';
import { libraryInsertion, LIBRARIES } from '../../shared/libraries.js';
import { placeMenu } from '../common/place-menu.js';
import { say } from '../common/status.js';

/**
 * The HTML pane's "Add library" button: a popover list of `LIBRARIES`; a pick inserts the library's tags
 * into the HTML pane as one edit (Ctrl/Cmd+Z takes it back), never a second copy of a tag.
 */
export function wireAddLibrary(panes: CodePanes): void {
  const button = document.getElementById('add-library') as HTMLButtonElement;
  const menu = document.getElementById('library-menu')!;
  const list = menu.querySelector('ul')!;
  for (const library of LIBRARIES) {
    const item = document.createElement('button');
    item.type = 'button';
    item.textContent = library.name;
    item.addEventListener('click', () => {
      menu.hidePopover();
      const insertion = libraryInsertion(panes.read().html, library);
      if (!insertion) return say(`${library.name} is already in the HTML.`);
      panes.insert('html', insertion.at, insertion.text);
      say(`Added ${library.name} to the HTML.`);
    });
    const line = document.createElement('li');
    line.append(item);
    list.append(line);
  }
  // The popover opens in the top layer; it is placed under its button and takes the focus, as a menu does.
  menu.addEventListener('toggle', (event) => {
    if (event.newState !== 'open') return;
    placeMenu(menu, button);
    list.querySelector('button')!.focus();
  });
  // Up and Down walk the list, as in a menu; Tab still works.
  list.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const items = [...list.querySelectorAll('button')];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const next = (at + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
    items[next]!.focus();
  });
}
