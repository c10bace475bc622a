/**
 * Which addresses the server may connect to on someone else's behalf: an allow-list, not a
 * deny-list. An address is allowed only when it is *global unicast*:
 *
 * - IPv4: outside every special-purpose block of the IANA registry (RFC 6890 and successors:
 *   this-network, private, loopback, link-local, CGNAT, documentation, benchmarking, reserved,
 *   multicast, broadcast, AS112/AMT anycast). ipaddr.js names those blocks; only its `unicast`
 *   (none of them) passes.
 * - IPv6: inside 2000::/3 (the only global unicast space IANA has allocated) and in none of the
 *   special-purpose blocks carved out of it (documentation, benchmarking, ORCHID, …).
 * - An IPv6 form that carries an IPv4 address (IPv4-mapped ::ffff:0:0/96, IPv4-translated
 *   ::ffff:0:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4
 *   2002::/16, Teredo 2001::/32) is judged by the IPv4 address(es) it carries, whatever block
 *   it sits in — so `::127.0.0.1` (`::7f00:1`) is loopback, and `64:ff9b::8.8.8.8` is public.
 *
 * Anything not positively recognised as one of these is refused.
 */
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_LOCAL = ipaddr.parseCIDR('64:ff9b:1::/48');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const IPV4_TRANSLATED = ipaddr.parseCIDR('::ffff:0:0:0/96');
const IPV4_MAPPED = ipaddr.parseCIDR('::ffff:0:0/96');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const TEREDO = ipaddr.parseCIDR('2001::/32');

const v4 = (bytes: readonly number[]) => new ipaddr.IPv4(bytes.map((b) => b & 0xff));

/**
 * The IPv4 addresses an IPv6 address carries (Teredo carries two: its server and, inverted,
 * its client), or undefined when it is not one of the forms that carry one.
 */
export function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const b = ip.toByteArray();
  const last32 = () => [v4(b.slice(12, 16))];
  if (ip.match(IPV4_MAPPED) || ip.match(IPV4_TRANSLATED) || ip.match(NAT64_WELL_KNOWN) || ip.match(IPV4_COMPATIBLE)) return last32();
  // RFC 6052 §2.2 with a /48 prefix: bits 48–63, then (after the zero "u" octet) bits 72–87.
  if (ip.match(NAT64_LOCAL)) return [v4([b[6]!, b[7]!, b[9]!, b[10]!])];
  if (ip.match(SIX_TO_FOUR)) return [v4(b.slice(2, 6))];
  if (ip.match(TEREDO)) return [v4(b.slice(4, 8)), v4(b.slice(12, 16).map((x) => ~x))];
  return undefined;
}

function isGlobalIPv4(ip: ipaddr.IPv4): boolean {
  return ip.range() === 'unicast';
}

function isGlobalIPv6(ip: ipaddr.IPv6): boolean {
  const carried = embeddedIPv4(ip);
  if (carried) return carried.every(isGlobalIPv4);
  return ip.match(GLOBAL_UNICAST_V6) && ip.range() === 'unicast';
}

/** True only for a global unicast address (the rule above); false for anything else, names included. */
export function isPublicAddress(address: string): boolean {
  // Zone ids (fe80::1%eth0) are link-local by definition.
  if (address.includes('%') || !ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  return ip.kind() === 'ipv4' ? isGlobalIPv4(ip as ipaddr.IPv4) : isGlobalIPv6(ip as ipaddr.IPv6);
}
