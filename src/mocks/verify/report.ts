import type { Difference } from './differences.js';

/** What a failed verification answers (417), as the CLI and the Node API read it. */
export type FailedVerification = {
  message: string;
  matched: number;
  nearMisses: { request: { method: string; url: string; endpoint: string | null }; differences: Difference[] }[];
};

/**
 * A failed verification in lines a person reads in a terminal or a test report: the server's message,
 * then each near miss and, field by field, what was expected and what came.
 */
export function verificationReport(failed: FailedVerification): string {
  const lines = [failed.message];
  if (failed.nearMisses.length === 0) {
    lines.push('no request came that is close: the logs in scope are empty');
    return lines.join('\n');
  }
  lines.push('closest requests:');
  for (const { request, differences } of failed.nearMisses) {
    const by = request.endpoint === null ? 'no endpoint answered' : request.endpoint;
    lines.push(`  ${request.method} ${request.url}  (${by})`);
    for (const { field, expected, actual } of differences) {
      lines.push(`    ${field}: expected ${JSON.stringify(expected)}, got ${actual === null ? 'nothing' : JSON.stringify(actual)}`);
    }
  }
  return lines.join('\n');
}
