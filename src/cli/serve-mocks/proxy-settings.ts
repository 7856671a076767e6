import { z } from 'zod/v3';
import { MOCK_DEFAULTS } from '../../mocks/config/defaults.js';
import type { ProxySettings } from '../../mocks/proxy/proxy.js';
import { CliError, EXIT } from '../common/errors.js';

const PROXY_URL = 'an http or https URL such as https://api.example.com or http://localhost:3000/v1';

/** --proxy: where unmatched requests go. No query, fragment or credentials: they would be dropped silently. */
export const proxyUrlSchema = z.string({ message: PROXY_URL }).refine((text) => {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  const plain = !url.search && !url.hash && !url.username && !url.password;
  return (url.protocol === 'http:' || url.protocol === 'https:') && plain;
}, { message: PROXY_URL });

const TIMEOUT = 'a whole number of milliseconds, at least 1';
export const proxyTimeoutSchema = z.number({ message: TIMEOUT }).int({ message: TIMEOUT }).min(1, { message: TIMEOUT });

type ProxyFlags = { proxy?: string; proxyTimeout: number; record: boolean; recordCookies: boolean; maxBody: number };

/** The proxy's settings, or undefined without --proxy; recording without a target is a usage error. */
export function proxySettings(settings: ProxyFlags): ProxySettings | undefined {
  const { proxy, proxyTimeout, record, recordCookies, maxBody } = settings;
  if (proxy === undefined) {
    if (record || recordCookies) throw new CliError('--record and --record-cookies need --proxy <url>', EXIT.usage);
    return undefined;
  }
  if (recordCookies && !record) throw new CliError('--record-cookies needs --record', EXIT.usage);
  return {
    target: proxy.replace(/\/$/, ''),
    timeoutMs: proxyTimeout,
    maxConnections: MOCK_DEFAULTS.proxyConnections,
    record,
    recordCookies,
    // What the API would accept as an endpoint is what a recording may hold.
    maxRecordBytes: maxBody,
  };
}
