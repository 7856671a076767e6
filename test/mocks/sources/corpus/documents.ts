import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../../../..');

/**
 * Where the corpus is: test/fixtures/openapi-corpus/ (its README names each document's source, commit
 * and licence), else shared/openapi-corpus/ beside the repository. Never skipped when absent: the test
 * fails, naming both places.
 */
export const CORPUS = [join(ROOT, 'test/fixtures/openapi-corpus'), join(ROOT, '../shared/openapi-corpus')].find((dir) =>
  existsSync(join(dir, 'stripe/spec3.json')),
) ?? join(ROOT, 'test/fixtures/openapi-corpus');

/** One public description: its file in the corpus and the first 16 hex digits of its SHA-256 (kept unchanged). */
export type CorpusDocument = { file: string; sha256: string };

export const DOCUMENTS: CorpusDocument[] = [
  { file: 'oai/v2.0/uber.json', sha256: '4372f3f6fa7d56f5' },
  { file: 'oai/v2.0/api-with-examples.yaml', sha256: '7a10daca44dba5c8' },
  { file: 'oai/v3.0/api-with-examples.yaml', sha256: 'f7dc3d69f69ca11a' },
  { file: 'oai/v3.0/callback-example.yaml', sha256: '42174fc75c21436e' },
  { file: 'oai/v3.0/link-example.yaml', sha256: '4b7b29d7bda1cf95' },
  { file: 'oai/v3.0/petstore-expanded.yaml', sha256: 'b1633b6309c065c4' },
  { file: 'oai/v3.0/uspto.yaml', sha256: '8c171115aa448ea4' },
  { file: 'oai/v3.1/non-oauth-scopes.yaml', sha256: 'b50f4c3aef8af9d9' },
  { file: 'oai/v3.1/webhook-example.yaml', sha256: 'f9301bd9c561f94b' },
  { file: 'stripe/spec3.json', sha256: '0623034db1e5a471' },
  { file: 'kubernetes/swagger.json', sha256: 'c316f6e232c66614' },
  { file: 'slack/slack_web_openapi_v2.json', sha256: '742a5c977180a829' },
  { file: 'box/openapi.json', sha256: '70adf696ed395572' },
  { file: 'openai/openapi.yaml', sha256: 'db5d7478feae10b4' },
  { file: 'digitalocean/specification/DigitalOcean-public.v2.yaml', sha256: '4ce7b0b809e1029a' },
];

/** The document's path, after checking it is there and unchanged. */
export function documentPath({ file, sha256 }: CorpusDocument): string {
  const path = join(CORPUS, file);
  if (!existsSync(path)) throw new Error(`${file} is missing from ${CORPUS} (see test/fixtures/openapi-corpus/README.md)`);
  const digest = createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
  if (digest !== sha256) throw new Error(`${file} is not the copy the README names: SHA-256 ${digest}..., not ${sha256}...`);
  return path;
}

const GAPS_HEADING = '## Real descriptions: what is supported and what is not';

/**
 * The known gaps table of docs/mock-api.md: `| \`stripe/spec3.json\` | \`GET /v1/x\` | cause |` rows,
 * as document -> operation -> cause.
 */
export function knownGaps(): Map<string, Map<string, string>> {
  const text = readFileSync(join(ROOT, 'docs/mock-api.md'), 'utf8');
  const at = text.indexOf(GAPS_HEADING);
  if (at < 0) throw new Error(`docs/mock-api.md has no section "${GAPS_HEADING.slice(3)}"`);
  const section = text.slice(at + GAPS_HEADING.length).split(/^## /m)[0]!;
  const gaps = new Map<string, Map<string, string>>();
  for (const [, file, operation, cause] of section.matchAll(/^\| `([^`]+)` \| `([A-Z]+ [^`]*)` \| (.+?) \|$/gm)) {
    if (!gaps.has(file!)) gaps.set(file!, new Map());
    gaps.get(file!)!.set(operation!, cause!);
  }
  return gaps;
}
