import { isIP } from 'node:net';

/** How many leading bits of an IPv6 address name one client by default: a /64 is one ordinary network (one machine's range). */
export const DEFAULT_IPV6_PREFIX = 64;

/** Throws a `RangeError` unless `bits` is a whole number from 1 to 128. */
export function assertIpv6Prefix(bits: number): void {
  if (!Number.isInteger(bits) || bits < 1 || bits > 128) {
    throw new RangeError(`ipv6Prefix must be a whole number from 1 to 128, got ${String(bits)}.`);
  }
}

/**
 * The rate-limit key of a client address: an IPv4 address as is; an IPv6 address as its network of
 * `ipv6Prefix` bits in canonical form (`2001:db8:0:7::/64`), since one machine commonly holds a whole
 * /64 and could otherwise take a fresh count with every address. Every spelling of one address gives
 * one key: zeros compressed or not, upper or lower case, a zone id (`fe80::1%eth0`), and an
 * IPv4-mapped address (`::ffff:203.0.113.9`, `::ffff:cb00:7109`), which is the IPv4 client it names.
 * Anything that is not an IP address is returned as is.
 */
export function clientAddressKey(address: string, ipv6Prefix = DEFAULT_IPV6_PREFIX): string {
  const zoneAt = address.indexOf('%');
  const plain = zoneAt === -1 ? address : address.slice(0, zoneAt);
  const family = isIP(plain);
  if (family === 4) return plain;
  if (family === 0) return address;
  assertIpv6Prefix(ipv6Prefix);
  const groups = ipv6Groups(plain);
  if (isIpv4Mapped(groups)) return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  if (ipv6Prefix === 128) return ipv6Text(groups);
  const masked = groups.map((group, index) => group & groupMask(ipv6Prefix - index * 16));
  return `${ipv6Text(masked)}/${ipv6Prefix}`;
}

/** The eight 16-bit groups of a valid IPv6 address (an embedded dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] {
  // The URL parser writes the address in its canonical form: hexadecimal only, lower case, `::` for the longest run of zeros.
  const [head = '', tail = ''] = ipv6Text(address).split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const zeros: string[] = Array.from({ length: 8 - headGroups.length - tailGroups.length }, () => '0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => Number.parseInt(group, 16));
}

/** The canonical text (RFC 5952) of an IPv6 address given as text or as its eight groups. */
function ipv6Text(address: string | readonly number[]): string {
  const text = typeof address === 'string' ? address : address.map((group) => group.toString(16)).join(':');
  return new URL(`http://[${text}]`).hostname.slice(1, -1);
}

function isIpv4Mapped(groups: readonly number[]): boolean {
  return groups[5] === 0xffff && groups.slice(0, 5).every((group) => group === 0);
}

/** The mask of one 16-bit group when `bits` of the prefix remain for it (all when 16 or more, none when 0 or fewer). */
function groupMask(bits: number): number {
  if (bits >= 16) return 0xffff;
  if (bits <= 0) return 0;
  return (0xffff << (16 - bits)) & 0xffff;
}
