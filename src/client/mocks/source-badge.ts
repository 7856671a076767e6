import { listSourceProblems, type SourceProblem } from './common/api.js';
import { el } from './common/dom.js';

/** The file a `file:<path>` source names. */
export const sourceFile = (source: string): string => source.replace(/^file:/, '');

/** A "file" badge after an endpoint's name when a watched file holds it; nothing otherwise. */
export function sourceBadge(source: string | undefined): HTMLElement[] {
  if (!source) return [];
  return [el('span', { class: 'badge', title: `from ${sourceFile(source)}` }, `file ${sourceFile(source)}`)];
}

/** `mocks/a.yaml:3:7: message (field statusCode)`, as the server prints it. */
export function problemText(problem: SourceProblem): string {
  const at = problem.line ? `:${problem.line}:${problem.column}` : '';
  return `${problem.file}${at}: ${problem.message}${problem.field ? ` (field ${problem.field})` : ''}`;
}

/** Fills `box` with the watched files whose last change was refused; hidden when there are none. */
export async function showSourceProblems(box: HTMLElement): Promise<void> {
  let problems: SourceProblem[];
  try {
    problems = await listSourceProblems();
  } catch {
    problems = []; // an older server without /api/sources
  }
  box.replaceChildren(
    el('h2', {}, 'Files not applied (their endpoints keep the last good version)'),
    el('ul', {}, ...problems.map((problem) => el('li', {}, el('code', {}, problemText(problem))))),
  );
  box.hidden = problems.length === 0;
}
