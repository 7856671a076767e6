import { isIP } from 'node:net';

/**
 * Where callbacks may go (--callback-host, docs/mock-api.md "Callbacks"): this machine's loopback
 * addresses always, and the hosts the user named. The mock API needs no key, so without this a
 * caller could make the server send requests anywhere it can reach (a server-side request forgery).
 * Judged on the URL as rendered, per request: a template cannot reach a host a saved URL could not.
 */
export type CallbackHosts = {
  /** The URL to send to, or why it may not be sent. */
  judge(url: string): URL | { refused: string };
  /** The named hosts, for messages and the start-up line. */
  readonly named: readonly string[];
};

/** A host name or IP, optionally with `:port`; IPv6 in brackets. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::[0-9]{1,5})?$/i;

/** Checks one --callback-host value; a message saying what is wrong when it is not a host. */
export function checkCallbackHost(value: string): string | undefined {
  const host = value.trim().toLowerCase();
  if (!HOST.test(host) || host.startsWith('.') || host.endsWith('.')) {
    return `--callback-host takes a host name or address, with a port or without (api.example.com, 10.0.0.5:8080), not '${value}'`;
  }
  const port = /:([0-9]+)$/.exec(host)?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return `--callback-host: port ${port} is not 1 to 65535`;
  return undefined;
}

/** The policy for `named` hosts (each checked by checkCallbackHost). */
export function callbackHosts(named: readonly string[] = []): CallbackHosts {
  const hosts = new Set<string>();
  const hostPorts = new Set<string>();
  for (const value of named) {
    const host = value.trim().toLowerCase();
    if (/:[0-9]+$/.test(host) && !host.endsWith(']')) hostPorts.add(host);
    else hosts.add(host);
  }
  const hint = named.length > 0 ? `; allowed: loopback, ${named.join(', ')}` : '; only loopback is allowed unless the server is started with --callback-host';
  return {
    named,
    judge(text) {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return { refused: `'${cut(text)}' is not an address` };
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refused: `'${cut(text)}' is not http:// or https://` };
      if (url.username || url.password) return { refused: 'the address carries a user name or password' };
      const host = url.hostname.toLowerCase();
      const port = url.port || (url.protocol === 'https:' ? '443' : '80');
      if (isLoopback(host) || hosts.has(host) || hostPorts.has(`${host}:${port}`)) return url;
      return { refused: `${url.host} is not an allowed callback host${hint}` };
    },
  };
}

/** `localhost`, 127.0.0.0/8 or ::1, as the URL parser writes them (it normalizes 0x7f.1 and the like). */
function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (host === '[::1]') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

function cut(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
