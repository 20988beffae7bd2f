/** Which names count as secrets, and how their values are hidden in any text of a profile. */
import { expect, it } from 'vitest';
import { defineController, JsonResponse, Request } from '@switchboard/http-kernel';
import { Redactor } from '../src/profile/redactor.js';
import { profiledKernel } from './support/profiled-kernel.js';

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

it('hides an OAuth authorization code (`code`, as a whole name only) and webhook signature headers', () => {
  expect(redactor.text('/callback?code=4%2F0AX4XfWh&state=xyz&status_code=404')).toBe(
    '/callback?code=[redacted]&state=xyz&status_code=404',
  );
  expect(['code', 'CODE', 'authorization_code'].map((name) => redactor.isSecretName(name))).toEqual([true, true, true]);
  expect(['status_code', 'country-code', 'codes'].map((name) => redactor.isSecretName(name))).toEqual([false, false, false]);
  expect(redactor.header('X-Hub-Signature-256', 'sha256=0f3c9a')).toBe('[redacted]');
  expect(redactor.header('X-Hub-Signature', 'sha1=7d2e41')).toBe('[redacted]');
});

it('a profile keeps neither the authorization code nor the webhook signature, wherever they reappear', async () => {
  const CODE = 'oauth-code-4f0ax4xfwh';
  const SIGNATURE = 'sha256=9c1e0f3c9a7b55d2';
  const app = profiledKernel({
    '/callback': defineController(['request'], (request: Request) => {
      // Logged through the profiling logger: the logger panel keeps the message.
      app.logger.info({}, `callback with ${request.queryString} signed ${request.headers.get('x-hub-signature-256')}`);
      return new JsonResponse({ ok: true });
    }),
  });
  const response = await app.handle(
    Request.fromUrl(`http://localhost/callback?code=${CODE}&state=st4te`, { headers: { 'x-hub-signature-256': SIGNATURE } }),
  );
  const profile = await app.profiler.loadProfile(response.headers.get('x-debug-token')!);
  const json = JSON.stringify(profile?.toData());
  expect(json).toContain('st4te');
  expect(json).not.toContain(CODE);
  expect(json).not.toContain(SIGNATURE.slice('sha256='.length));
  expect(profile?.url).toBe('http://localhost/callback?code=[redacted]&state=st4te');
});
