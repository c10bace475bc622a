/**
 * The address policy, one row per form: only global unicast passes, and an IPv6 form that
 * carries an IPv4 address is judged by the address it carries.
 */
import { describe, expect, it } from 'vitest';
import ipaddr from 'ipaddr.js';
import { embeddedIPv4, isPublicAddress } from '../../src/http/address-policy.ts';
import { createSafeFetcher } from '../../src/http/safe-fetch.ts';

describe('isPublicAddress: IPv4', () => {
  it.each([
    ['public', '93.184.216.34', true],
    ['public DNS', '8.8.8.8', true],
    ['this network 0/8', '0.0.0.0', false],
    ['this network 0/8 (not zero)', '0.1.2.3', false],
    ['loopback', '127.0.0.1', false],
    ['loopback (other)', '127.255.255.254', false],
    ['private 10/8', '10.0.0.1', false],
    ['private 172.16/12', '172.31.255.255', false],
    ['private 192.168/16', '192.168.1.1', false],
    ['link-local / cloud metadata', '169.254.169.254', false],
    ['carrier-grade NAT', '100.64.0.1', false],
    ['IETF protocol assignments 192.0.0/24', '192.0.0.170', false],
    ['documentation TEST-NET-1', '192.0.2.1', false],
    ['documentation TEST-NET-2', '198.51.100.7', false],
    ['documentation TEST-NET-3', '203.0.113.9', false],
    ['benchmarking 198.18/15', '198.19.0.1', false],
    ['6to4 relay anycast', '192.88.99.1', false],
    ['multicast', '224.0.0.1', false],
    ['reserved 240/4', '240.0.0.1', false],
    ['broadcast', '255.255.255.255', false],
  ])('%s: %s → %s', (_rule, address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('isPublicAddress: IPv6', () => {
  it.each([
    ['global unicast', '2606:4700:4700::1111', true],
    ['global unicast (other)', '2a00:1450:4001:81c::200e', true],
    ['unspecified', '::', false],
    ['loopback', '::1', false],
    ['loopback, long form', '0:0:0:0:0:0:0:1', false],
    ['unique local fc00::/7', 'fc00::1', false],
    ['unique local fd00::/8', 'fd12:3456::1', false],
    ['link-local', 'fe80::1', false],
    ['link-local with a zone id', 'fe80::1%eth0', false],
    ['site-local (deprecated)', 'fec0::1', false],
    ['multicast', 'ff02::1', false],
    ['discard-only 100::/64', '100::1', false],
    ['documentation 2001:db8::/32', '2001:db8::1', false],
    ['documentation 3fff::/20', '3fff::1', false],
    ['benchmarking 2001:2::/48', '2001:2::1', false],
    ['ORCHIDv2', '2001:20::1', false],
    ['outside 2000::/3 (unallocated)', '4000::1', false],
    ['segment routing 5f00::/16', '5f00::1', false],
  ])('%s: %s → %s', (_rule, address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('isPublicAddress: IPv6 forms that carry an IPv4 address', () => {
  it.each([
    ['IPv4-compatible loopback (::127.0.0.1)', '::7f00:1', false],
    ['IPv4-compatible metadata (::169.254.169.254)', '::a9fe:a9fe', false],
    ['IPv4-compatible private (::10.0.0.1)', '::a00:1', false],
    ['IPv4-compatible, dotted', '::127.0.0.1', false],
    ['IPv4-compatible public', '::8.8.8.8', true],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1', false],
    ['IPv4-mapped private, hex', '::ffff:a00:1', false],
    ['IPv4-mapped public', '::ffff:8.8.8.8', true],
    ['IPv4-translated loopback', '::ffff:0:7f00:1', false],
    ['NAT64 loopback', '64:ff9b::7f00:1', false],
    ['NAT64 metadata', '64:ff9b::169.254.169.254', false],
    ['NAT64 public', '64:ff9b::808:808', true],
    ['local-use NAT64 /48 of loopback', '64:ff9b:1:7f00:0:100::', false],
    ['local-use NAT64 /48 of a public address', '64:ff9b:1:808:8:800::', true],
    ['6to4 of loopback', '2002:7f00:1::', false],
    ['6to4 of metadata', '2002:a9fe:a9fe::1', false],
    ['6to4 of a public address', '2002:808:808::1', true],
    ['Teredo with a documentation client', '2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['Teredo with a loopback client', '2001:0:4136:e378:8000:63bf:80ff:fffe', false],
    ['Teredo with a private server', '2001:0:a00:1:8000:63bf:f7f7:f7f7', false],
    ['Teredo with public server and client', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', true],
  ])('%s: %s → %s', (_rule, address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('reads the addresses each form carries', () => {
    const carried = (a: string) => embeddedIPv4(ipaddr.IPv6.parse(a))?.map(String);
    expect(carried('::7f00:1')).toEqual(['127.0.0.1']);
    expect(carried('64:ff9b:1:7f00:0:100::')).toEqual(['127.0.0.1']);
    expect(carried('2002:a9fe:a9fe::')).toEqual(['169.254.169.254']);
    expect(carried('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toEqual(['65.54.227.120', '192.0.2.45']);
    expect(carried('2606:4700:4700::1111')).toBeUndefined();
  });

  it('refuses what is not an address at all', () => {
    for (const value of ['', 'localhost', 'example.org', '256.1.1.1', '::g', '1.2.3.4.5']) expect(isPublicAddress(value)).toBe(false);
  });
});

describe('a URL someone gave us (PayloadsAllTheThings forms of 127.0.0.1 and friends)', () => {
  const fetcher = createSafeFetcher({ allowHosts: [] });
  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://127.0.1/',
    'http://127.000000000000000.1/',
    'http://2130706433/',
    'http://017700000001/',
    'http://0x7f000001/',
    'http://0x7f.0x0.0x0.0x1/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://%31%32%37.0.0.1/',
    'http://①②⑦.⓪.⓪.①/',
    'http://0/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://[::1]/',
    'http://[0000::1]/',
    'http://[0:0:0:0:0:ffff:127.0.0.1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[::169.254.169.254]/',
    'http://[::10.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://[fe80::1%25lo]/',
    'http://localhost/',
    'http://LOCALHOST:3000/',
    'http://app.localhost/',
    'http://localhost./',
    'http://169.254.169.254/latest/meta-data/',
    'http://user:pass@example.org/',
    'file:///etc/passwd',
    'gopher://example.org/',
    'not a url',
  ])('%s is refused', (url) => {
    expect(fetcher.allows(url)).toBe(false);
  });

  it('allows public addresses and names, and refuses the names the server answers on', () => {
    expect(fetcher.allows('https://example.org/cam.m3u8')).toBe(true);
    expect(fetcher.allows('http://[2606:4700:4700::1111]/')).toBe(true);
    expect(fetcher.allows('http://8.8.8.8/')).toBe(true);
    expect(fetcher.allows('http://wall.example.org:3000/', { ownHosts: ['wall.example.org'] })).toBe(false);
    expect(fetcher.allows('http://WALL.example.org/', { ownHosts: ['wall.example.org'] })).toBe(false);
  });

  it('lets the allow-list (tests\' fixtures) through', () => {
    const permissive = createSafeFetcher({ allowHosts: ['127.0.0.1'] });
    expect(permissive.allows('http://127.0.0.1:4601/x.m3u8')).toBe(true);
    expect(permissive.allows('http://127.0.0.2/')).toBe(false);
  });
});
