import { startConsole } from './console-panel.js';
import { startTabs } from './tabs.js';

/** The embed page: its console panel, its tabs, and its code highlighted once the grammars have loaded. */
startConsole();
const tabList = document.querySelector<HTMLElement>('[role="tablist"]');
if (tabList) startTabs(tabList);
const code = document.querySelectorAll<HTMLElement>('code[data-language]');
if (code.length > 0) {
  // A failed load leaves the code plain, which still reads.
  import('./highlight.js').then((module) => module.highlightAll(code)).catch((error) => console.warn('highlighting failed:', error));
}
