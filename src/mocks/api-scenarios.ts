import type { Router } from '@koa/router';
import { HttpError } from '../http/errors.js';
import { sendJson } from '../http/json-answer.js';
import { isJsonObject, readJsonBody } from '../http/json-body.js';
import { checkState, isScenarioName, MAX_SCENARIO_TEXT, START, statesNamed } from './record/validate-scenario.js';
import type { MockStore } from './store/store.js';

/**
 * GET /api/scenarios: every scenario an endpoint names, with its state now, and the states its
 * endpoints name (for the page's choice); PUT /api/scenarios `{ "checkout": "start", … }` sets states,
 * all or none (docs/mock-api.md, "Scenarios").
 */
export function addScenarioRoutes(router: Router, store: MockStore, body: { limit: number }): void {
  /** Each scenario the endpoints name, with the states they name, `start` first. */
  const named = () => {
    const found = new Map<string, Set<string>>();
    for (const { record } of store.list()) {
      if (record.scenario === undefined) continue;
      const states = found.get(record.scenario) ?? new Set([START]);
      for (const state of statesNamed(record)) states.add(state);
      found.set(record.scenario, states);
    }
    return new Map([...found].sort(([a], [b]) => (a < b ? -1 : 1)));
  };
  const answer = () => {
    const scenarios = named();
    return {
      success: true,
      scenarios: Object.fromEntries([...scenarios.keys()].map((name) => [name, store.scenarios.state(name)])),
      states: Object.fromEntries([...scenarios].map(([name, states]) => [name, [...states]])),
    };
  };

  router.get('/scenarios', (ctx) => sendJson(ctx, answer()));

  router.put('/scenarios', async (ctx) => {
    const states = await readJsonBody(ctx, body);
    if (!isJsonObject(states)) {
      throw new HttpError(400, 'send a JSON object of scenario names to states, such as { "checkout": "start" }');
    }
    const entries = Object.entries(states);
    if (entries.length === 0) throw new HttpError(400, 'name at least one scenario, such as { "checkout": "start" }');
    const known = named();
    // Every check before anything is set: a refusal sets nothing.
    for (const [name, state] of entries) {
      if (!isScenarioName(name)) {
        const shown = name.length > MAX_SCENARIO_TEXT ? `${name.slice(0, MAX_SCENARIO_TEXT)}…` : name;
        const rule = `1 to ${MAX_SCENARIO_TEXT} characters, each a letter, a digit or one of . _ ~ -`;
        throw new HttpError(400, `'${shown}' is not a scenario name: ${rule}`, name.slice(0, MAX_SCENARIO_TEXT));
      }
      checkState(state, name);
    }
    for (const [name] of entries) {
      if (!known.has(name)) throw new HttpError(404, `no scenario named '${name}': no endpoint names it`, name);
    }
    await store.scenarios.set(new Map(entries as [string, string][]));
    sendJson(ctx, answer());
  });
}
