import type { MockInput } from './record.js';
import { bad } from './validate-fields.js';

/**
 * Stateful scenarios' names and states (docs/mock-api.md, "Scenarios"): short, printable, and safe in
 * a URL, a shell line and a YAML file without quoting. Every scenario starts at START.
 */
export const START = 'start';
/** Longest scenario name and state, in characters. */
export const MAX_SCENARIO_TEXT = 64;

const SCENARIO = /^[A-Za-z0-9._~-]{1,64}$/;
// The name's characters, and spaces between words: "item added".
const STATE = /^(?!.{65})[A-Za-z0-9._~-]+(?: [A-Za-z0-9._~-]+)*$/;

const SCENARIO_RULE = `1 to ${MAX_SCENARIO_TEXT} characters, each a letter, a digit or one of . _ ~ -`;
const STATE_RULE = `1 to ${MAX_SCENARIO_TEXT} characters: letters, digits, . _ ~ - and single spaces between words`;

/** A scenario's name; a 400 naming `field` otherwise. */
export function checkScenarioName(value: unknown, field: string): string {
  if (typeof value !== 'string' || !SCENARIO.test(value)) throw bad(field, `${field} must be a scenario name of ${SCENARIO_RULE}`);
  return value;
}

/** A state of a scenario; a 400 naming `field` otherwise. */
export function checkState(value: unknown, field: string): string {
  if (typeof value !== 'string' || !STATE.test(value)) throw bad(field, `${field} must be a state of ${STATE_RULE}`);
  return value;
}

/** Whether `value` is a scenario name (for the API's answers, which say so rather than throw). */
export const isScenarioName = (value: string): boolean => SCENARIO.test(value);

/**
 * A state needs a scenario to be the state of: `setState` (the endpoint's or a response's) or a
 * `when.state` on an endpoint without `scenario` is a 400 naming that field.
 */
export function checkScenarioUse(input: MockInput): void {
  if (input.scenario !== undefined) return;
  const needs = (field: string) =>
    bad(field, `${field} needs a scenario: name the endpoint's scenario with "scenario" (such as "scenario": "checkout")`);
  if (input.setState !== undefined) throw needs('setState');
  for (const [i, response] of (input.responses ?? []).entries()) {
    if (response.when?.state !== undefined) throw needs(`responses[${i}].when.state`);
    if (response.setState !== undefined) throw needs(`responses[${i}].setState`);
  }
}

/** Every state an endpoint names (its responses' `when.state` and each `setState`), for the page's choice. */
export function statesNamed(input: MockInput): string[] {
  const named = [input.setState];
  for (const response of input.responses ?? []) named.push(response.when?.state, response.setState);
  return named.filter((state): state is string => state !== undefined);
}
