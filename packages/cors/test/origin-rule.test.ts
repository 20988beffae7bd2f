import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileOriginRules, LOOPBACK_ORIGIN } from '../src/index.js';

const specRule = compileOriginRules([LOOPBACK_ORIGIN]);

/**
 * The default origin rule (docs/cors.md) written out by hand, without a regular expression, as the oracle for the
 * property test: `http`/`https` (any case) `://`, host `localhost`/`127.0.0.1` (any case),
 * then nothing, or `:` and one or more ASCII digits.
 */
function specOracle(origin: string): boolean {
  const separator = origin.indexOf('://');
  if (separator < 0) return false;
  const scheme = origin.slice(0, separator).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return false;
  const rest = origin.slice(separator + 3);
  const colon = rest.indexOf(':');
  const host = (colon < 0 ? rest : rest.slice(0, colon)).toLowerCase();
  if (host !== 'localhost' && host !== '127.0.0.1') return false;
  if (colon < 0) return true;
  const port = rest.slice(colon + 1);
  return port.length > 0 && [...port].every((ch) => ch >= '0' && ch <= '9');
}

const accepted = [
  'http://localhost',
  'https://localhost',
  'http://127.0.0.1',
  'https://127.0.0.1',
  'http://localhost:3000',
  'https://127.0.0.1:8443',
  'http://localhost:0',
  'http://localhost:65535',
  'HTTP://LOCALHOST',
  'Https://LocalHost:8080',
  'http://127.0.0.1:00080',
];

const refused: Array<[string, string]> = [
  ['lookalike suffix', 'http://localhost.evil.com'],
  ['lookalike port-then-host', 'http://localhost:80.evil.com'],
  ['lookalike prefix', 'http://evillocalhost'],
  ['lookalike subdomain', 'http://localhost.localdomain'],
  ['lookalike ip suffix', 'http://127.0.0.1.evil.com'],
  ['lookalike ip prefix', 'http://1127.0.0.1'],
  ['dot as wildcard', 'http://127a0b0c1'],
  ['userinfo before host', 'http://localhost@evil.com'],
  ['userinfo with host', 'http://user:pass@localhost'],
  ['userinfo localhost', 'http://evil.com@localhost'],
  ['path', 'http://localhost/'],
  ['path after port', 'http://localhost:3000/evil'],
  ['query', 'http://localhost?x=1'],
  ['fragment', 'http://localhost#x'],
  ['backslash', 'http://localhost\\evil.com'],
  ['scheme ftp', 'ftp://localhost'],
  ['scheme ws', 'ws://localhost'],
  ['scheme file', 'file://localhost'],
  ['scheme httpss', 'httpss://localhost'],
  ['scheme prefix', 'xhttp://localhost'],
  ['missing slashes', 'http:localhost'],
  ['one slash', 'http:/localhost'],
  ['three slashes', 'http:///localhost'],
  ['ipv6 loopback', 'http://[::1]'],
  ['ipv6 loopback with port', 'http://[::1]:3000'],
  ['other loopback address', 'http://127.0.0.2'],
  ['short loopback', 'http://127.1'],
  ['decimal loopback', 'http://2130706433'],
  ['hex loopback', 'http://0x7f000001'],
  ['octal loopback', 'http://0177.0.0.1'],
  ['zero address', 'http://0.0.0.0'],
  ['null', 'null'],
  ['empty', ''],
  ['list', 'http://localhost, http://evil.com'],
  ['list reversed', 'http://evil.com http://localhost'],
  ['empty port', 'http://localhost:'],
  ['sign in port', 'http://localhost:+80'],
  ['negative port', 'http://localhost:-1'],
  ['hex port', 'http://localhost:0x50'],
  ['unicode digits in port', 'http://localhost:٣٠٠٠'],
  ['fullwidth digits in port', 'http://localhost:８０'],
  ['double port', 'http://localhost:80:80'],
  ['trailing dot', 'http://localhost.'],
  ['trailing dot with port', 'http://localhost.:3000'],
  ['leading space', ' http://localhost'],
  ['trailing space', 'http://localhost '],
  ['trailing tab', 'http://localhost\t'],
  ['trailing newline', 'http://localhost\n'],
  ['newline then host', 'http://localhost\nhttp://evil.com'],
  ['null byte', 'http://localhost\u0000.evil.com'],
  ['percent-encoded host', 'http://%6cocalhost'],
  ['cyrillic lookalike', 'http://lоcalhost'],
  ['dotless i uppercase trick', 'http://LOCALHOST\u0130'],
  ['punycode', 'http://xn--localhost-'],
  ['wildcard', '*'],
  ['bare host', 'localhost'],
  ['bare host and port', 'localhost:3000'],
  ['scheme only', 'http://'],
];

describe('the default origin rule (anchored, case-insensitive, raw header)', () => {
  it.each(accepted)('accepts %s', (origin) => {
    expect(specRule(origin)).toBe(true);
    expect(specOracle(origin)).toBe(true);
  });

  it.each(refused)('refuses %s: %j', (_shape, origin) => {
    expect(specRule(origin)).toBe(false);
    expect(specOracle(origin)).toBe(false);
  });

  it('accepts a random origin exactly when the hand-written rule does', () => {
    const piece = fc.constantFrom(
      'http',
      'https',
      'HTTP',
      'hTtPs',
      'ftp',
      '://',
      ':/',
      ':',
      '/',
      '.',
      '@',
      ' ',
      '\n',
      ',',
      'localhost',
      'LOCALHOST',
      '127.0.0.1',
      '127.0.0.2',
      '[::1]',
      'evil.com',
      '80',
      '3000',
      '0',
      '٣',
      '?',
      '#',
    );
    const origin = fc.oneof(
      fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
      fc
        .tuple(
          fc.constantFrom('http', 'https', 'HTTPS', 'ws'),
          fc.constantFrom('localhost', '127.0.0.1', 'LocalHost', 'localhost.', '127.0.0.1.evil'),
          fc.option(fc.stringMatching(/^[0-9]{0,6}$/)),
          fc.constantFrom('', '/', ' ', '.evil.com'),
        )
        .map(([scheme, host, port, tail]) => `${scheme}://${host}${port === null ? '' : `:${port}`}${tail}`),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(origin, (value) => specRule(value) === specOracle(value)),
      { numRuns: 5000 },
    );
  });
});

describe('configured rules', () => {
  it('anchors a pattern that forgot its anchors', () => {
    const rule = compileOriginRules([/https?:\/\/localhost/]);
    expect(rule('https://localhost')).toBe(true);
    expect(rule('https://localhost.evil.com')).toBe(false);
    expect(rule('https://evil.com?https://localhost')).toBe(false);
  });

  it('anchors the documented-but-wrong `^http://localhost:[0-9]+` and ignores g, y and m flags', () => {
    expect(compileOriginRules([/^http:\/\/localhost:[0-9]+/])('http://localhost:80.evil.com')).toBe(false);
    const sticky = compileOriginRules([/http:\/\/localhost/gy]);
    expect([sticky('http://localhost'), sticky('http://localhost'), sticky('http://localhost')]).toEqual([true, true, true]);
    expect(compileOriginRules([/^http:\/\/localhost$/m])('http://localhost\nhttp://evil.com')).toBe(false);
  });

  it('keeps alternatives inside the anchors', () => {
    const rule = compileOriginRules([/http:\/\/a\.test|http:\/\/b\.test/]);
    expect(rule('http://a.test')).toBe(true);
    expect(rule('http://a.test.evil')).toBe(false);
    expect(rule('http://evil.http://b.test')).toBe(false);
  });

  it('compares exact strings case-insensitively and only whole', () => {
    const rule = compileOriginRules(['https://app.example']);
    expect(rule('HTTPS://APP.EXAMPLE')).toBe(true);
    expect(rule('https://app.example.evil')).toBe(false);
  });

  it('lets a function decide on the raw value', () => {
    const seen: string[] = [];
    const rule = compileOriginRules([
      (origin) => {
        seen.push(origin);
        return origin.endsWith(':4000');
      },
    ]);
    expect(rule('http://x:4000')).toBe(true);
    expect(seen).toEqual(['http://x:4000']);
  });

  it('allows nothing with an empty list and anything with "*"', () => {
    expect(compileOriginRules([])('http://localhost')).toBe(false);
    expect(compileOriginRules(['*'])('https://anything.example')).toBe(true);
  });

  it('refuses an absurdly long origin before matching', () => {
    expect(compileOriginRules([/.*/])(`http://${'a'.repeat(5000)}`)).toBe(false);
  });
});

describe('an origin written as a string', () => {
  it.each([
    ['a trailing slash', 'https://notes.example/', 'write "https://notes.example"'],
    ['a path', 'https://notes.example/app', 'write "https://notes.example"'],
    ['a default port', 'https://notes.example:443', 'write "https://notes.example"'],
    ['no scheme', 'notes.example', 'needs a scheme and a host, as a browser sends it (e.g. "https://notes.example")'],
    ['"null"', 'null', 'needs a scheme and a host'],
  ])('is refused when it has %s, with the spelling that would match', (_, rule, message) => {
    expect(() => compileOriginRules([rule])).toThrow(TypeError);
    expect(() => compileOriginRules([rule])).toThrow(message);
  });

  it('is accepted as scheme, host and port, in any case', () => {
    const matches = compileOriginRules(['https://Notes.Example', 'http://[::1]:8080', 'http://localhost:3000']);
    expect(['https://notes.example', 'http://[::1]:8080', 'http://LOCALHOST:3000'].map(matches)).toEqual([true, true, true]);
    expect(matches('https://notes.example:8443')).toBe(false);
  });
});
