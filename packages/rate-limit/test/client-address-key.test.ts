/** The key a client address is counted under: IPv4 as is, IPv6 by its network, every spelling alike. */
import { describe, expect, it } from 'vitest';
import { clientAddressKey } from '../src/index.js';

describe('clientAddressKey', () => {
  it('keeps an IPv4 address as is', () => {
    expect(clientAddressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddressKey('127.0.0.1', 128)).toBe('127.0.0.1');
  });

  it('counts an IPv6 address by its /64: every address of one network is one key', () => {
    const network = '2001:db8:0:7::/64';
    for (const address of ['2001:db8:0:7::1', '2001:db8:0:7:ffff:ffff:ffff:ffff', '2001:db8:0:7:a:b:c:d']) {
      expect(clientAddressKey(address)).toBe(network);
    }
    expect(clientAddressKey('2001:db8:0:8::1')).toBe('2001:db8:0:8::/64');
  });

  it('gives one key for every spelling of an address: compressed or not, upper case, leading zeros', () => {
    const spellings = ['2001:db8::1', '2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8:0:0::1', '2001:DB8::0:1'];
    expect(new Set(spellings.map((address) => clientAddressKey(address)))).toEqual(new Set(['2001:db8::/64']));
    expect(new Set(spellings.map((address) => clientAddressKey(address, 128)))).toEqual(new Set(['2001:db8::1']));
    expect(clientAddressKey('::')).toBe('::/64');
    expect(clientAddressKey('::1', 128)).toBe('::1');
  });

  it('drops a zone id: fe80::1%eth0 is the link-local network', () => {
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80::/64');
    expect(clientAddressKey('fe80::1%2', 128)).toBe('fe80::1');
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 client, dotted or in hexadecimal', () => {
    for (const mapped of ['::ffff:203.0.113.9', '::FFFF:203.0.113.9', '::ffff:cb00:7109', '0:0:0:0:0:ffff:cb00:7109']) {
      expect(clientAddressKey(mapped)).toBe('203.0.113.9');
    }
    // Other addresses with a dotted tail are IPv6 networks (NAT64 here).
    expect(clientAddressKey('64:ff9b::192.0.2.1', 128)).toBe('64:ff9b::c000:201');
  });

  it('masks within a group for a prefix that is not a multiple of 16', () => {
    expect(clientAddressKey('2001:db8:abcd:12ff::1', 56)).toBe('2001:db8:abcd:1200::/56');
    expect(clientAddressKey('2001:db8:abcd:12ff::1', 48)).toBe('2001:db8:abcd::/48');
    expect(clientAddressKey('2001:db8:abcd:12ff::1', 1)).toBe('::/1');
    expect(clientAddressKey('ffff::1', 1)).toBe('8000::/1');
  });

  it('returns what is not an IP address as is, and refuses a prefix outside 1–128', () => {
    expect(clientAddressKey('unknown')).toBe('unknown');
    expect(clientAddressKey('')).toBe('');
    expect(() => clientAddressKey('2001:db8::1', 0)).toThrow(RangeError);
    expect(() => clientAddressKey('2001:db8::1', 129)).toThrow(RangeError);
    expect(() => clientAddressKey('2001:db8::1', 64.5)).toThrow(RangeError);
  });
});
