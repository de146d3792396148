/**
 * A recording's headers: what is sent upstream (the upstream key instead of the mock's, nothing
 * per-connection), what a cassette keeps (no credential), and the credential values to mask
 * wherever they occur.
 *
 * @module
 */
import { isCredentialName } from '../util/mask';
import { maskCredentialQuery } from './redact';

/** Per-connection headers, and what the proxy's own fetch sets again. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'content-encoding',
]);

/** The client's headers as sent upstream: per-connection ones dropped, the upstream key instead of the mock's. */
export function forwarded(headers: Headers, apiKey: string | undefined): Headers {
  const out = new Headers();
  headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && name !== 'authorization') out.set(name, value);
  });
  if (apiKey !== undefined && apiKey !== '') out.set('authorization', `Bearer ${apiKey}`);
  return out;
}

/** Headers as a cassette keeps them: no credential, nothing per-connection, no credential in a URL's query (a redirect's `location`). */
export function kept(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && !isCredentialName(name))
      out[name] =
        name === 'location' || name === 'content-location' ? maskCredentialQuery(value) : value;
  });
  return out;
}

/** The values of the credential headers sent upstream (and the token of `Bearer <token>`), to mask wherever they occur. */
export function credentialValues(headers: Headers): string[] {
  const values: string[] = [];
  headers.forEach((value, name) => {
    if (!isCredentialName(name)) return;
    values.push(value);
    const token = /^\w+\s+(\S+)$/.exec(value)?.[1];
    if (token !== undefined) values.push(token);
  });
  return values;
}
