import { defineController, JsonResponse, Request, RequestStack } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUser, IS_AUTHENTICATED, type Voter } from '../src/index.js';
import { LeakLedger } from './support/leak-ledger.js';
import { startSecuredHost, type SecuredHost } from './support/secured-host.js';

const ledger = new LeakLedger();
let host: SecuredHost;

const ok = defineController(['request'], (request: Request) => new JsonResponse({ user: currentUser(request)?.identifier ?? null }));
/** Voter: the `owner` route default must be the user. */
const ownsDocument: Voter = ({ user, request }) => user !== null && request.attributes.get('owner') === user.identifier;

/** Async voter, as one that looks something up: grants users whose identifier starts with "a". */
const asyncVoter: Voter = async function startsWithA({ user }) {
  await new Promise((resolve) => setTimeout(resolve, 1));
  return user?.identifier.startsWith('a') ?? false;
};

const alice = { identifier: 'alice', roles: ['ROLE_USER'] };
const admin = { identifier: 'root', roles: ['ROLE_ADMIN'] };

beforeAll(async () => {
  host = await startSecuredHost({
    ledger,
    extraFirewalls: [{ name: 'open', pattern: /^\/open/, security: false }],
    routes: [
      { name: 'any_user', path: '/api/any', controller: ok, defaults: { _is_granted: IS_AUTHENTICATED } },
      { name: 'either_role', path: '/api/either', controller: ok, defaults: { _is_granted: ['ROLE_EDITOR', 'ROLE_ADMIN'] } },
      { name: 'alice_doc', path: '/api/docs/alice', controller: ok, defaults: { owner: 'alice', _is_granted: ownsDocument } },
      { name: 'async_vote', path: '/api/async', controller: ok, defaults: { _is_granted: asyncVoter } },
      { name: 'open_admin', path: '/open/admin', controller: ok, defaults: { _is_granted: 'ROLE_ADMIN' } },
      { name: 'open_page', path: '/open/page', controller: ok },
    ],
  });
});

afterAll(() => host.close());

const json = { accept: 'application/json' };
const bearer = async (user: typeof alice) => ({ ...json, authorization: `Bearer ${await host.tokenFor(user)}` });

describe('authorization (_is_granted) over HTTP', () => {
  it('IS_AUTHENTICATED grants any user', async () => {
    const response = await host.request('/api/any', { headers: await bearer(alice) });
    expect(response.status).toBe(200);
    expect(response.body).toBe('{"user":"alice"}');
  });

  it('a list of roles grants on any one of them, denies with 403 otherwise', async () => {
    expect((await host.request('/api/either', { headers: await bearer(admin) })).status).toBe(200);
    const denied = await host.request('/api/either', { headers: await bearer(alice) });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('www-authenticate')).toBeNull();
    expect(JSON.parse(denied.body)).toMatchObject({
      status: 403,
      detail: 'Access Denied by _is_granted(ROLE_EDITOR, ROLE_ADMIN) on route "either_role".',
    });
  });

  it('a voter decides from the user and the request', async () => {
    expect((await host.request('/api/docs/alice', { headers: await bearer(alice) })).status).toBe(200);
    const denied = await host.request('/api/docs/alice', { headers: await bearer(admin) });
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.body)).toMatchObject({ detail: 'Access Denied by _is_granted(voter ownsDocument) on route "alice_doc".' });
  });

  it('an async voter is awaited', async () => {
    expect((await host.request('/api/async', { headers: await bearer(alice) })).status).toBe(200);
    const denied = await host.request('/api/async', { headers: await bearer(admin) });
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.body)).toMatchObject({ detail: 'Access Denied by _is_granted(voter startsWithA) on route "async_vote".' });
  });

  it('no user on an open firewall → 401 with a Bearer challenge through the error flow', async () => {
    const response = await host.request('/open/admin', { headers: json });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(response.body)).toMatchObject({ status: 401, detail: 'Full authentication is required to access this resource.' });
  });

  it('a route without _is_granted on an open firewall is not checked', async () => {
    const response = await host.request('/open/page');
    expect(response.status).toBe(200);
    expect(response.body).toBe('{"user":null}');
  });

  it('the 403 is logged at ERROR on the request channel, like every 4xx', () => {
    const logged = host.logger.records.filter(
      (record) => record.channel === 'request' && record.message.includes('Access Denied by _is_granted'),
    );
    expect(logged.map((record) => record.level)).toContain('ERROR');
  });
});

describe('currentUser', () => {
  it('a sub-request sees the user of its main request', () => {
    const main = Request.fromUrl('http://localhost/api/any');
    main.requestStack = new RequestStack();
    main.requestStack.push(main);
    main.attributes.set('_security_user', alice);
    const sub = main.duplicate({ attributes: [] });
    main.requestStack.push(sub);
    expect(currentUser(sub)).toBe(alice);
    expect(currentUser(Request.fromUrl('http://localhost/'))).toBeNull();
  });
});

describe('leak scan', () => {
  it('no response, header or log line of this file contains the passphrase or the private key', async () => {
    await host.close();
    expect(ledger.size).toBeGreaterThan(5);
    expect(ledger.findLeaks()).toEqual([]);
  });
});

describe('authorization refusals outside debug mode', () => {
  let production: SecuredHost;
  beforeAll(async () => {
    production = await startSecuredHost({
      debug: false,
      ledger: new LeakLedger(),
      routes: [{ name: 'admin_only', path: '/api/admin', controller: ok, defaults: { _is_granted: 'ROLE_ADMIN' } }],
    });
  });
  afterAll(() => production.close());

  it('answer 403 without naming the roles or the route, which stay in the log', async () => {
    const denied = await production.request('/api/admin', {
      headers: { ...json, authorization: `Bearer ${await production.tokenFor(alice)}` },
    });
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.body)).toMatchObject({ status: 403, detail: 'Forbidden' });
    expect(denied.body).not.toContain('ROLE_ADMIN');
    expect(denied.body).not.toContain('admin_only');
  });
});
