import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { badInput } from '../../core/errors.js';
import { MAX_WEBHOOK_URL_LENGTH } from '../../rules/webhooks.js';

/**
 * Where webhooks may go (server-side request forgery): an endpoint's URL names a host on the public
 * internet. An address that is not ordinary unicast (loopback, RFC 1918 and unique-local private
 * ranges, link-local, unspecified, carrier-grade NAT, multicast, reserved, and the IPv4-mapped or
 * -translated forms of any of these) is refused when the endpoint is created and again at every
 * delivery, where the name is resolved by the sender itself and the connection goes to the address
 * that was checked: a name pointed at 127.0.0.1 after the endpoint was made reaches nothing.
 * WEBHOOK_ALLOW_PRIVATE=1 lets them through (tests, a shop's own network).
 */

/** Resolves a host name to every address it has (the system resolver by default; tests give their own). */
export type HostLookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export const systemLookup: HostLookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** How long creating an endpoint waits for its name to resolve. */
const CREATE_LOOKUP_MS = 5000;

/** Why an address may not be called (its range, in words), or null for an ordinary public address. */
export function refusedRange(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are judged as the IPv4 address they carry.
    parsed = ipaddr.process(address);
  } catch {
    return 'not an IP address';
  }
  const range = parsed.range();
  if (range !== 'unicast') return RANGE_WORDS[range] ?? range;
  return parsed.kind() === 'ipv6' ? (MORE_IPV6_RANGES.find(([cidr]) => (parsed as ipaddr.IPv6).match(cidr))?.[1] ?? null) : null;
}

/** IPv6 ranges that carry or stand for something other than a public host, beyond the library's list. */
const MORE_IPV6_RANGES: [[ipaddr.IPv6, number], string][] = [
  [ipaddr.IPv6.parseCIDR('::/96'), 'IPv4-compatible'],
  [ipaddr.IPv6.parseCIDR('64:ff9b:1::/48'), 'IPv4-translated'],
  [ipaddr.IPv6.parseCIDR('100::/64'), 'discard'],
];

const RANGE_WORDS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private',
  linkLocal: 'link-local',
  unspecified: 'unspecified',
  carrierGradeNat: 'carrier-grade NAT',
  multicast: 'multicast',
  broadcast: 'broadcast',
  reserved: 'reserved',
  ipv4Mapped: 'IPv4-mapped',
  rfc6145: 'IPv4-translated',
  rfc6052: 'IPv4-translated',
  '6to4': '6to4',
  teredo: 'Teredo',
};

/** A refused address as an error (what a delivery records as its failure). */
export class RefusedAddressError extends Error {
  constructor(hostname: string, address: string, range: string) {
    const kind = `${/^[aeiou]/i.test(range) ? 'an' : 'a'} ${range} address`;
    super(hostname === address ? `Refused: ${address} is ${kind}` : `Refused: ${hostname} resolves to ${address}, ${kind}`);
    this.name = 'RefusedAddressError';
  }
}

/** The host of a URL as an IP address when it is one (IPv6 without its brackets), else null. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) ? bare : null;
}

/** The first refused address of a host's addresses, as an error; null when every one is public. */
export function refusal(hostname: string, addresses: readonly { address: string }[]): RefusedAddressError | null {
  for (const { address } of addresses) {
    const range = refusedRange(address);
    if (range) return new RefusedAddressError(hostname, address, range);
  }
  return null;
}

/**
 * An endpoint URL as an admin gives it, checked: http(s), at most 2,000 characters, and (unless
 * private addresses are allowed) not naming or resolving to a refused address. A name that does not
 * resolve now is taken (it is resolved and checked again at every delivery). BAD_USER_INPUT on `url`.
 */
export async function cleanWebhookUrl(value: unknown, options: { allowPrivate: boolean; lookup: HostLookup }): Promise<string> {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) throw badInput('Give the URL the events are sent to.', 'url');
  if (text.length > MAX_WEBHOOK_URL_LENGTH) throw badInput(`A URL is at most ${MAX_WEBHOOK_URL_LENGTH} characters.`, 'url');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badInput('The URL is not valid: write it in full, e.g. https://example.com/hooks/art-song.', 'url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badInput('The URL must start with https:// or http://.', 'url');
  if (!url.hostname) throw badInput('The URL needs a host name.', 'url');
  if (url.username || url.password) throw badInput('Leave user names and passwords out of the URL: deliveries are signed instead.', 'url');
  if (!options.allowPrivate) {
    const literal = ipLiteral(url.hostname);
    const addresses = literal ? [{ address: literal }] : await resolvedOrNone(url.hostname, options.lookup);
    const refused = refusal(literal ?? url.hostname, addresses);
    if (refused) throw badInput(`${refused.message.replace(/^Refused: /, '')}: webhooks go to public internet addresses only.`, 'url');
  }
  return url.href;
}

/** A host's addresses, or none when it does not resolve (in time). */
async function resolvedOrNone(hostname: string, lookup: HostLookup): Promise<readonly { address: string }[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<[]>((resolve) => (timer = setTimeout(() => resolve([]), CREATE_LOOKUP_MS)));
  try {
    return await Promise.race([lookup(hostname).catch(() => []), late]);
  } finally {
    clearTimeout(timer);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/**
 * The `lookup` of the sender's sockets: resolves the name, refuses it when any of its addresses is
 * refused, and hands the socket the addresses it checked (so the connection goes to one of them).
 */
export function checkedLookup(options: { allowPrivate: boolean; lookup: HostLookup }) {
  return (hostname: string, lookupOptions: { family?: number | string; all?: boolean }, callback: LookupCallback): void => {
    options.lookup(hostname).then(
      (found) => {
        const family = lookupOptions.family === 4 || lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 6 || lookupOptions.family === 'IPv6' ? 6 : 0;
        const addresses = found.filter((entry) => !family || entry.family === family).map((entry) => ({ address: entry.address, family: entry.family }));
        if (!addresses.length) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '');
        const refused = options.allowPrivate ? null : refusal(hostname, found);
        if (refused) return callback(refused, '');
        if (lookupOptions.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
