// Where the shared HTTP client may send a request, and which network failures no retry fixes.
//   - Upstream-named URLs (a photo URL, a download_location, a PDF link taken from an API's
//     answer) must not reach loopback, link-local, private or otherwise non-public addresses
//     (every redirect hop included), unless the configured upstream that named them is itself
//     such an address (a local fake or mirror): an upstream must not steer our servers to the
//     machine's own services. The check resolves the host name first; a name that resolves
//     differently between the check and the connection (DNS rebinding) is not covered.
//   - DNS failures, no route and a refused connection to a non-loopback host fail at once:
//     retrying them only delays the fallback layer (docs/fallback.md).
import { lookup } from 'node:dns/promises';
import net from 'node:net';

const nonPublic = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  nonPublic.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(address, prefix, 'ipv6');
}

const loopbackName = /^(localhost|.+\.localhost)$/i;

function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '');
}

/**
 * True for an IP literal in a loopback, link-local, private, shared, multicast or reserved range.
 * @internal Exported for its tests.
 */
export function isNonPublicAddress(address: string): boolean {
  const bare = bareHost(address);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped?.[1]) return nonPublic.check(mapped[1], 'ipv4');
  const family = net.isIP(bare);
  if (family === 4) return nonPublic.check(bare, 'ipv4');
  if (family === 6) return nonPublic.check(bare, 'ipv6');
  return false;
}

/** A host name that is itself non-public: "localhost" or a non-public IP literal (no lookup). */
function isNonPublicHostName(hostname: string): boolean {
  return loopbackName.test(bareHost(hostname)) || isNonPublicAddress(hostname);
}

export function isLoopbackHostName(hostname: string): boolean {
  const bare = bareHost(hostname);
  return loopbackName.test(bare) || /^127(?:\.\d{1,3}){3}$/.test(bare) || bare === '::1';
}

export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Why `url` may not be fetched as an upstream-named URL, or undefined when it may. `namedBy` is
 * the configured base URL of the API that named it: when that is non-public, so may this be.
 * A host that does not resolve is left to the request itself (it fails as unreachable).
 */
export async function refusedNamedDestination(url: URL, namedBy: string, resolve: Resolver = systemResolver): Promise<string | undefined> {
  if (isNonPublicHostName(new URL(namedBy).hostname)) return undefined;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${url.protocol} URLs are not fetched`;
  const host = bareHost(url.hostname);
  if (isNonPublicHostName(host)) return `${host} is not a public address`;
  if (net.isIP(host)) return undefined;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return undefined;
  }
  const inside = addresses.find(isNonPublicAddress);
  return inside ? `${host} resolves to ${inside}, which is not a public address` : undefined;
}

const unreachableCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN']);

/** The innermost error code of a failed fetch (undici wraps the socket's error in `cause`). */
function networkErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  let code: string | undefined;
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    code = (current as NodeJS.ErrnoException).code ?? code;
    current = current.cause;
  }
  return code;
}

/**
 * True when no retry can help: the name does not resolve, there is no route, or a host that is
 * not loopback refused the connection (a loopback fake or mirror may still be starting).
 */
export function isUnreachableForGood(error: unknown, hostname: string): boolean {
  const code = networkErrorCode(error);
  if (code === undefined) return false;
  return unreachableCodes.has(code) || (code === 'ECONNREFUSED' && !isLoopbackHostName(hostname));
}
