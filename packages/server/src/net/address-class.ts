import { isIPv4, isIPv6 } from 'node:net';

/**
 * What kind of network an IP address belongs to, for the webhook guard (docs/webhooks.md,
 * "Network safety"). Only 'public' addresses may be reached unless `webhooks.allowPrivateNetworks`
 * is set. Ranges from the IANA special-purpose registries (RFC 6890) and RFC 6598 (CGNAT),
 * RFC 4193 (ULA), RFC 4291 (IPv6 link-local and IPv4-mapped), RFC 6052 and RFC 8215 (NAT64).
 */
export type AddressClass =
  'public' | 'loopback' | 'private' | 'link-local' | 'cgnat' | 'multicast' | 'unspecified' | 'unique-local' | 'reserved';

/** IPv4 ranges as [network, prefix length, class]; the first match wins. */
const V4_RANGES: readonly (readonly [string, number, AddressClass])[] = [
  ['0.0.0.0', 32, 'unspecified'],
  ['0.0.0.0', 8, 'reserved'], // "this network"
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'], // cloud metadata (169.254.169.254) lives here
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments (NAT64 discovery, DS-Lite…)
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // documentation
  ['203.0.113.0', 24, 'reserved'], // documentation
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // future use, and 255.255.255.255 (broadcast)
];

function v4ToNumber(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inRange(n: number, base: number, bits: number): boolean {
  if (bits === 0) return true;
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(base / size);
}

function classifyV4Number(n: number): AddressClass {
  for (const [ip, bits, cls] of V4_RANGES) if (inRange(n, v4ToNumber(ip), bits)) return cls;
  return 'public';
}

/** The 8 groups of an IPv6 address (already checked by isIPv6), a trailing dotted quad included. */
function v6Groups(ip: string): number[] {
  let text = ip;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const n = v4ToNumber(quad[1]);
    text = `${text.slice(0, quad.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  if (tail === undefined) return left;
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** Do the first `bits` of `groups` equal those of `prefix` (given as groups)? */
function v6Prefix(groups: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((groups[i] & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function classifyV6(ip: string): AddressClass {
  const g = v6Groups(ip);
  const lastV4 = (g[6] << 16) + g[7];
  const allZeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (allZeroUpTo(8)) return 'unspecified';
  if (allZeroUpTo(7) && g[7] === 1) return 'loopback';
  // Forms that carry an IPv4 address are what that address is: a connection may reach it.
  if (allZeroUpTo(5) && g[5] === 0xffff) return classifyV4Number(lastV4 >>> 0); // ::ffff:a.b.c.d, mapped (RFC 4291)
  if (allZeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return classifyV4Number(lastV4 >>> 0); // ::ffff:0:a.b.c.d (SIIT)
  if (allZeroUpTo(6)) return classifyV4Number(lastV4 >>> 0); // ::a.b.c.d, deprecated IPv4-compatible
  if (v6Prefix(g, [0x64, 0xff9b], 96)) return classifyV4Number(lastV4 >>> 0); // NAT64 (RFC 6052)
  if (v6Prefix(g, [0x64, 0xff9b, 1], 48)) return classifyV4Number(lastV4 >>> 0); // local-use NAT64 (RFC 8215)
  if (v6Prefix(g, [0x2002], 16)) return classifyV4Number(((g[1] << 16) + g[2]) >>> 0); // 6to4 (RFC 3056)
  if (v6Prefix(g, [0xfe80], 10)) return 'link-local';
  if (v6Prefix(g, [0xfec0], 10)) return 'private'; // deprecated site-local
  if (v6Prefix(g, [0xfc00], 7)) return 'unique-local';
  if (v6Prefix(g, [0xff00], 8)) return 'multicast';
  if (v6Prefix(g, [0x2001, 0], 32)) return 'reserved'; // Teredo: the IPv4 end is obfuscated, not checkable
  if (v6Prefix(g, [0x2001, 0xdb8], 32) || v6Prefix(g, [0x3fff], 20)) return 'reserved'; // documentation
  if (v6Prefix(g, [0x2001, 2, 0], 48)) return 'reserved'; // benchmarking
  if (v6Prefix(g, [0x2001, 0x10], 28) || v6Prefix(g, [0x2001, 0x20], 28)) return 'reserved'; // ORCHID
  if (v6Prefix(g, [0x100], 64)) return 'reserved'; // discard-only
  if (!v6Prefix(g, [0x2000], 3)) return 'reserved'; // outside global unicast
  return 'public';
}

/**
 * The class of an IP address (v4 or v6; brackets and a `%zone` are allowed), or undefined when
 * the text is not an IP address. Only canonical dotted quads count as IPv4 here: decimal, octal and
 * hex forms are for the WHATWG URL parser to turn into a dotted quad first.
 */
export function classifyAddress(text: string): AddressClass | undefined {
  const ip = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIPv4(ip)) return classifyV4Number(v4ToNumber(ip));
  if (isIPv6(ip)) return classifyV6(ip.toLowerCase());
  return undefined;
}
