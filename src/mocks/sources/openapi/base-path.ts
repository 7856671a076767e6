import { parse } from 'yaml';
import { asObject } from './media-answer.js';

/**
 * The path of a document's own base URL, for `--base-path` given alone: Swagger 2.0's `basePath`,
 * else the path of OpenAPI 3's first `servers` URL, its `{variables}` given their defaults (`/v1`
 * from `https://api.example.com/v1`); `/` when it names none. `text` is JSON or YAML.
 */
export function documentBasePath(text: string): string {
  const document = asObject(parse(text, { maxAliasCount: 1000 }));
  if (typeof document.basePath === 'string') return document.basePath || '/';
  const server = asObject(Array.isArray(document.servers) ? document.servers[0] : undefined);
  if (typeof server.url !== 'string') return '/';
  const variables = asObject(server.variables);
  const url = server.url.replace(/\{([^}]*)\}/g, (_, name: string) => String(asObject(variables[name]).default ?? ''));
  try {
    return new URL(url, 'http://localhost').pathname;
  } catch {
    return '/';
  }
}
