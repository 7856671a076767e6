import { startConsole } from './console-panel.js';
import { startTabs } from './tabs.js';

/** The embed page: its console panel and its tabs. */
startConsole();
const tabList = document.querySelector<HTMLElement>('[role="tablist"]');
if (tabList) startTabs(tabList);
