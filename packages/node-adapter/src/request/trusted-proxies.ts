import { BlockList, isIP } from 'node:net';

/**
 * The addresses whose `X-Forwarded-*` headers are believed: exact addresses or CIDR ranges,
 * IPv4 or IPv6 (`'10.0.0.0/8'`, `'::1'`), plus the shorthand `'loopback'`. Everyone else's
 * forwarded headers are ignored, since any client can send them.
 */
export class TrustedProxies {
  readonly #list = new BlockList();
  readonly #empty: boolean;

  constructor(entries: readonly string[]) {
    this.#empty = entries.length === 0;
    for (const entry of entries) {
      if (entry === 'loopback') {
        this.#list.addSubnet('127.0.0.0', 8, 'ipv4');
        this.#list.addAddress('::1', 'ipv6');
        continue;
      }
      const [address = '', prefix] = entry.split('/');
      const family = isIP(address);
      if (family === 0) throw new TypeError(`Trusted proxy "${entry}" is not an IP address or CIDR range.`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) {
        this.#list.addAddress(address, type);
        continue;
      }
      const bits = Number(prefix);
      if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) {
        throw new TypeError(`Trusted proxy "${entry}" has an invalid prefix length.`);
      }
      this.#list.addSubnet(address, bits, type);
    }
  }

  get isEmpty(): boolean {
    return this.#empty;
  }

  /** Whether `address` (as a socket reports it; IPv4-mapped IPv6 allowed) is a trusted proxy. */
  has(address: string): boolean {
    if (this.#empty) return false;
    const plain = unmapIpv4(address);
    const family = isIP(plain);
    if (family === 0) return false;
    return this.#list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** `::ffff:10.0.0.1` (a dual-stack socket's view of an IPv4 peer) → `10.0.0.1`. */
export function unmapIpv4(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
