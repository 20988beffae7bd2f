/** Which names count as secrets, and how their values are hidden in any text of a profile. */
import { expect, it } from 'vitest';
import { Redactor } from '../src/index.js';

const redactor = new Redactor();

it('a name is secret as a whole or by its last separated parts, in any case and separator', () => {
  const secret = ['X-Amz-Security-Token', 'access_token', 'API_KEY', 'x.api.key', 'api+key', 'password', 'User_Password', 'X-Api-Key'];
  expect(secret.filter((name) => !redactor.isSecretName(name))).toEqual([]);
  const plain = ['x-debug-token-link', 'bypass', 'page', 'tokens', 'author', 'keyboard', 'sort'];
  expect(plain.filter((name) => redactor.isSecretName(name))).toEqual([]);
  // The profiler's own token headers are public; other headers named like secrets are not.
  expect(['x-debug-token', 'x-previous-debug-token', 'x-upload-session-token'].map((name) => redactor.isSensitiveHeader(name))).toEqual([
    false,
    false,
    true,
  ]);
});

it('hides values of parameters named like secrets, also with encoded names, and URL userinfo', () => {
  expect(redactor.text('/login?p%61ssword=abc&api+key=def&x=1')).toBe('/login?p%61ssword=[redacted]&api+key=[redacted]&x=1');
  expect(redactor.text('client_secret=s3cr3t;visible=yes token=abc')).toBe('client_secret=[redacted];visible=yes token=[redacted]');
  expect(redactor.text('from "https://user:pa%40ss@app.example/x?y=1"')).toBe('from "https://[redacted]@app.example/x?y=1"');
  // A long text of pairs none of which is named like a secret is left as it is.
  const pairs = 'a=b&'.repeat(16_384);
  expect(redactor.text(pairs)).toBe(pairs);
});

it('hides log-context values under keys named like secrets, at any depth, and keeps the rest', () => {
  expect(redactor.namedValues({ user: 'ann', password: 'x', query: { api_key: 'k', page: 2 }, list: [{ token: 't' }] })).toEqual({
    user: 'ann',
    password: '[redacted]',
    query: { api_key: '[redacted]', page: 2 },
    list: [{ token: '[redacted]' }],
  });
});

it('takes its lists from options', () => {
  const custom = new Redactor({ headers: ['x-tenant'], secretNames: ['pin'] });
  expect([custom.isSensitiveHeader('X-Tenant'), custom.isSecretName('card_pin'), custom.isSecretName('password')]).toEqual([
    true,
    true,
    false,
  ]);
});
