import { ApiError, listScenarios, setScenarios, type ScenarioStates } from './common/api.js';
import { byId, el } from './common/dom.js';

export type ScenariosPanel = {
  /** Reads every scenario's state again (after endpoints changed or were called: a request may move one). */
  load(): Promise<void>;
};

/**
 * The sidebar's Scenarios panel (#scenarios): each scenario the endpoints name with its state, which a
 * choice sets at once (PUT /api/scenarios), and one button to put them all back at start. Hidden while
 * no endpoint names a scenario.
 */
export function createScenariosPanel(): ScenariosPanel {
  const section = byId('scenarios');
  const list = byId('scenario-list');
  const error = byId('scenario-error');
  const restart = byId<HTMLButtonElement>('scenarios-start');
  let busy = false;
  let again = false;

  const draw = ({ scenarios, states }: ScenarioStates) => {
    const names = Object.keys(scenarios);
    // Kept in sight while it says why a choice failed, even when that scenario is gone.
    section.hidden = names.length === 0 && error.hidden;
    restart.disabled = names.every((name) => scenarios[name] === 'start');
    // A choice open in a select is not redrawn away under the pointer.
    if (section.contains(document.activeElement) && document.activeElement?.tagName === 'SELECT') return;
    list.replaceChildren(
      ...names.map((name) => {
        const state = scenarios[name]!;
        // The states its endpoints name, and the one it is in (a PUT may have set another).
        const choices = [...new Set([...(states[name] ?? ['start']), state])];
        const select = el('select', { 'aria-label': `State of scenario ${name}`, 'data-scenario': name });
        select.append(...choices.map((choice) => el('option', { value: choice }, choice)));
        select.value = state;
        select.addEventListener('change', () => void set({ [name]: select.value }));
        const row = el('li', { class: state === 'start' ? 'scenario' : 'scenario moved' });
        row.append(el('span', { class: 'scenario-name', title: name }, name), select);
        return row;
      }),
    );
  };

  const show = (err: unknown) => {
    error.textContent = err instanceof ApiError ? err.message : String(err);
    error.hidden = false;
  };

  const set = async (states: Record<string, string>) => {
    error.hidden = true;
    try {
      (document.activeElement as HTMLElement | null)?.blur();
      draw(await setScenarios(states));
    } catch (err) {
      show(err);
      await load();
    }
  };

  // Redraws skipped while a choice had focus catch up once it leaves.
  list.addEventListener('focusout', () => void load());
  restart.addEventListener('click', () => {
    const all = Object.fromEntries([...list.querySelectorAll('select')].map((s) => [s.dataset.scenario!, 'start']));
    if (Object.keys(all).length > 0) void set(all);
  });

  // One read at a time, and one more after it when asked meanwhile: calls come a few times a second.
  const load = async (): Promise<void> => {
    if (busy) return void (again = true);
    busy = true;
    try {
      do {
        again = false;
        draw(await listScenarios());
      } while (again);
    } catch (err) {
      show(err);
    } finally {
      busy = false;
    }
  };
  return { load };
}
