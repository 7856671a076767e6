import type { Command } from 'commander';
import { generatedKeyFile, readGeneratedKey } from '../../bins/auth/generated-key.js';
import { isLoopback } from '../../server/loopback.js';
import type { ClientOptions, ServerKind } from './client.js';
import { CliError, EXIT } from './errors.js';
import { createOutput, type Output } from './output.js';

/** The flags every client command takes. */
export type GlobalFlags = { server?: string; apiKey?: string; json?: boolean; quiet?: boolean; debug?: boolean };

const DEFAULT_SERVER: Record<ServerKind, { env: string; url: string }> = {
  bin: { env: 'SNIPPETKIT_BIN_SERVER', url: 'http://localhost:3000' },
  mock: { env: 'SNIPPETKIT_MOCK_SERVER', url: 'http://localhost:16540' },
};

/** Adds the client flags to a command; `kind` picks the default server shown in its help. */
export function withClientFlags(command: Command, kind: ServerKind): Command {
  const { env, url } = DEFAULT_SERVER[kind];
  command.option('--server <url>', `the ${kind} server, or a joint one (snippetkit serve) (env ${env} or SNIPPETKIT_SERVER; default ${url})`);
  // only the bin server has keys; a mock command sends the bins' to a joint server alone (private mocks)
  if (kind === 'bin') {
    command.option('--api-key <key>', 'API key, sent as "Authorization: token KEY" (env SNIPPETKIT_API_KEY)');
  }
  return command
    .option('--json', 'machine-readable output on stdout, nothing else')
    .option('-q, --quiet', 'print only the result and errors');
}

/** What a client command needs: where the server is, the key, and how to print. */
export function clientContext(command: Command, kind: ServerKind, env: NodeJS.ProcessEnv = process.env): {
  client: ClientOptions;
  out: Output;
  flags: GlobalFlags;
} {
  const flags = command.optsWithGlobals<GlobalFlags>();
  // The kind's own variable, then the one a joint server (snippetkit serve) is named by for both kinds.
  const server = flags.server ?? (env[DEFAULT_SERVER[kind].env] || env.SNIPPETKIT_SERVER || DEFAULT_SERVER[kind].url);
  let parsed: URL;
  try {
    parsed = new URL(server);
  } catch {
    throw new CliError(`--server ${server} is not a URL; give one like ${DEFAULT_SERVER[kind].url}`, EXIT.usage);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(`--server ${server} must be an http:// or https:// URL`, EXIT.usage);
  }
  // A mock command has no --api-key: it knows the bins' key from the environment or the local server's file.
  const known = flags.apiKey ?? (env.SNIPPETKIT_API_KEY || undefined);
  const localKey = !known && isLoopback(parsed.hostname) ? localServerKey() : undefined;
  const keys = { apiKey: known, ...(localKey && { localKey }) };
  return {
    client: { server: server.replace(/\/+$/, ''), kind, ...(kind === 'bin' ? keys : { binKeys: keys }) },
    out: createOutput(flags),
    flags,
  };
}

/** The key a bin server of this user on this machine made (serve-bins on a loopback address), if any. */
function localServerKey(): ClientOptions['localKey'] {
  const file = generatedKeyFile();
  try {
    const found = readGeneratedKey(file);
    return found && { key: found.key, file };
  } catch {
    // A file that holds no key is the server's to report at its start; the command goes on without it.
    return undefined;
  }
}
