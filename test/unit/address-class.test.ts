import { describe, expect, it } from 'vitest';
import { classifyAddress, type AddressClass } from '../../packages/server/src/net/address-class.js';

/**
 * The webhook guard's address classes (docs/webhooks.md, "Network safety"), one row per class and
 * per way of writing an address. URL rows go through the WHATWG parser first, as a delivery does:
 * it turns decimal, octal and hex IPv4 forms into dotted quads and IPv6 into its short form.
 */

const hostOf = (url: string) => new URL(url).hostname;

const rows: [string, string, AddressClass][] = [
  ['IPv4 loopback', '127.0.0.1', 'loopback'],
  ['IPv4 loopback, anywhere in 127/8', '127.45.6.7', 'loopback'],
  ['IPv6 loopback', '::1', 'loopback'],
  ['IPv4-mapped loopback, dotted', '::ffff:127.0.0.1', 'loopback'],
  ['IPv4-mapped loopback, hex', '::ffff:7f00:1', 'loopback'],
  ['IPv4-mapped loopback in a URL', hostOf('http://[::ffff:127.0.0.1]/hook'), 'loopback'],
  ['decimal IPv4 in a URL', hostOf('http://2130706433/hook'), 'loopback'],
  ['octal IPv4 in a URL', hostOf('http://0177.0.0.1/hook'), 'loopback'],
  ['hex IPv4 in a URL', hostOf('http://0x7f.1/hook'), 'loopback'],
  ['IPv4-compatible IPv6 (deprecated)', '::127.0.0.1', 'loopback'],
  ['NAT64 of loopback', '64:ff9b::7f00:1', 'loopback'],
  ['local-use NAT64 of a private address', '64:ff9b:1::a00:1', 'private'],
  ['6to4 of loopback', '2002:7f00:1::1', 'loopback'],
  ['10/8', '10.1.2.3', 'private'],
  ['172.16/12', '172.31.255.255', 'private'],
  ['just outside 172.16/12', '172.32.0.1', 'public'],
  ['192.168/16', '192.168.1.1', 'private'],
  ['IPv4-mapped private', '::ffff:10.0.0.1', 'private'],
  ['cloud metadata', '169.254.169.254', 'link-local'],
  ['IPv4-mapped cloud metadata', hostOf('http://[::ffff:169.254.169.254]/'), 'link-local'],
  ['IPv6 link-local', 'fe80::1', 'link-local'],
  ['IPv6 link-local with a zone', 'fe80::1%eth0', 'link-local'],
  ['CGNAT', '100.64.0.1', 'cgnat'],
  ['CGNAT, last address', '100.127.255.254', 'cgnat'],
  ['IPv6 unique local', 'fd00::1', 'unique-local'],
  ['IPv6 unique local, fc00::/8 half', 'fc00::2', 'unique-local'],
  ['IPv4 unspecified', '0.0.0.0', 'unspecified'],
  ['IPv6 unspecified', '::', 'unspecified'],
  ['IPv4 multicast', '224.0.0.1', 'multicast'],
  ['IPv6 multicast', 'ff02::1', 'multicast'],
  ['this network, 0/8', '0.1.2.3', 'reserved'],
  ['future use, 240/4', '240.0.0.1', 'reserved'],
  ['broadcast', '255.255.255.255', 'reserved'],
  ['documentation, 192.0.2/24', '192.0.2.10', 'reserved'],
  ['documentation, 198.51.100/24', '198.51.100.7', 'reserved'],
  ['documentation, 203.0.113/24', '203.0.113.9', 'reserved'],
  ['benchmarking, 198.18/15', '198.19.0.1', 'reserved'],
  ['IPv6 documentation', '2001:db8::1', 'reserved'],
  ['Teredo (its IPv4 end cannot be checked)', '2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
  ['IPv6 outside global unicast', '4000::1', 'reserved'],
  ['public IPv4', '1.1.1.1', 'public'],
  ['public IPv4, 8.8.8.8', '8.8.8.8', 'public'],
  ['public IPv6', '2606:4700::1111', 'public'],
  ['public IPv6 in a URL', hostOf('https://[2606:4700::1111]/'), 'public'],
  ['IPv4-mapped public', '::ffff:1.1.1.1', 'public'],
];

describe('classifyAddress', () => {
  it.each(rows)('%s: %s is %s', (_, address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('answers undefined for a host name or garbage (those are resolved, not classified)', () => {
    expect(classifyAddress('example.com')).toBeUndefined();
    expect(classifyAddress('127.0.0.1.nip.io')).toBeUndefined();
    expect(classifyAddress('')).toBeUndefined();
  });

  it('reads the URL forms as the parser writes them', () => {
    expect(hostOf('http://[::ffff:127.0.0.1]/')).toBe('[::ffff:7f00:1]');
    expect(hostOf('http://2130706433/')).toBe('127.0.0.1');
    expect(hostOf('http://0177.0.0.1/')).toBe('127.0.0.1');
  });
});
