/**
 * JWT verification benchmark: one valid RS256 access token, verified by Switchboard's firewall
 * authenticator (header parsing, jose verification, claim checks, user from claims), by jose's
 * `jwtVerify` alone, and by Hono's `hono/jwt` `verify`, in one run; then the cost of the firewall
 * inside a whole kernel request. Every contender is checked first to accept the token and refuse
 * a tampered one.
 * Run: `cd bench && node --import tsx security.bench.ts`
 */
import './built-packages.js';
import { generateKeyPairSync } from 'node:crypto';
import { ControllerResolver, EventDispatcher, HttpKernel, JsonResponse, Request, type KernelEventMap } from '@switchboard/http-kernel';
import {
  FirewallListener,
  FirewallMap,
  IsGrantedListener,
  JwtAuthenticator,
  JwtTokenIssuer,
  type JwsAlgorithm,
} from '@switchboard/security';
import { verify as honoVerify } from 'hono/jwt';
import { jwtVerify } from 'jose';
import { Bench } from 'tinybench';
import { machineLine, median, reportJson } from './report.js';

const BATCH = 20;
const user = { identifier: 'alice', roles: ['ROLE_USER'] };

function setup(kind: 'rsa' | 'ed25519', algorithm: JwsAlgorithm) {
  const pair = kind === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ed25519');
  return {
    pair,
    algorithm,
    authenticator: new JwtAuthenticator({ publicKey: pair.publicKey, algorithms: [algorithm] }),
    issuer: new JwtTokenIssuer({ privateKey: pair.privateKey, algorithm, ttl: 3600 }),
  };
}

const rsa = setup('rsa', 'RS256');
const eddsa = setup('ed25519', 'EdDSA');
const rsToken = await rsa.issuer.issueToken(user);
const edToken = await eddsa.issuer.issueToken(user);
const tampered = rsToken.replace(/\.[^.]+\./, `.${Buffer.from('{"username":"root","exp":9999999999}').toString('base64url')}.`);
const rsCryptoKey = await crypto.subtle.importKey(
  'spki',
  rsa.pair.publicKey.export({ type: 'spki', format: 'der' }),
  { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  true,
  ['verify'],
);

const bearer = (token: string) => Request.fromUrl('http://localhost/api/me', { headers: { authorization: `Bearer ${token}` } });

function kernelWith(firewall: boolean): HttpKernel {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.on(
    'kernel.request',
    (event) => {
      event.request.attributes.set('_route', 'api_me');
      event.request.attributes.set('_controller', () => new JsonResponse({ ok: true }));
      if (firewall) event.request.attributes.set('_is_granted', 'IS_AUTHENTICATED');
    },
    32,
  );
  if (firewall) {
    dispatcher.addSubscriber(
      new FirewallListener(new FirewallMap([{ name: 'api', pattern: /^\/api/, authenticators: [rsa.authenticator] }])),
    );
    dispatcher.addSubscriber(new IsGrantedListener());
  }
  return new HttpKernel({ dispatcher, controllerResolver: new ControllerResolver() });
}
const secured = kernelWith(true);
const open = kernelWith(false);

// Correctness first: each contender accepts the token and refuses the tampered one.
const accepts = async (name: string, run: (token: string) => Promise<boolean>) => {
  if (!(await run(rsToken))) throw new Error(`${name} refused a valid token`);
  if (await run(tampered)) throw new Error(`${name} accepted a tampered token`);
};
await accepts('switchboard', async (token) => (await rsa.authenticator.authenticate(bearer(token))).kind === 'authenticated');
await accepts('jose', (token) =>
  jwtVerify(token, rsa.pair.publicKey, { algorithms: ['RS256'], requiredClaims: ['exp'] }).then(
    () => true,
    () => false,
  ),
);
await accepts('hono', (token) =>
  honoVerify(token, rsCryptoKey, 'RS256').then(
    () => true,
    () => false,
  ),
);
await accepts('kernel', async (token) => (await secured.handle(bearer(token))).status === 200);
if ((await eddsa.authenticator.authenticate(bearer(edToken))).kind !== 'authenticated') throw new Error('EdDSA refused');

const tasks: ReadonlyArray<readonly [string, () => Promise<unknown>]> = [
  ['jose jwtVerify RS256', () => jwtVerify(rsToken, rsa.pair.publicKey, { algorithms: ['RS256'], requiredClaims: ['exp'] })],
  ['switchboard JwtAuthenticator RS256', () => rsa.authenticator.authenticate(bearer(rsToken))],
  ['hono/jwt verify RS256', () => honoVerify(rsToken, rsCryptoKey, 'RS256')],
  ['switchboard JwtAuthenticator EdDSA', () => eddsa.authenticator.authenticate(bearer(edToken))],
  ['kernel request, JWT firewall + IsGranted (RS256)', () => secured.handle(bearer(rsToken))],
  ['kernel request, no security', () => open.handle(bearer(rsToken))],
];

// The machine is shared: several short rounds, each in a rotated order, and the median per
// contender, so a burst of someone else's work does not land on one contender only.
const ROUNDS = 5;
const samples = new Map<string, number[]>(tasks.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  const bench = new Bench({ time: 600, warmup: true, warmupTime: 200 });
  for (let k = 0; k < tasks.length; k++) {
    const [name, run] = tasks[(k + round) % tasks.length]!;
    bench.add(name, async () => {
      for (let i = 0; i < BATCH; i++) await run();
    });
  }
  await bench.run();
  for (const task of bench.tasks) {
    const mean = (task.result as { latency?: { mean: number } }).latency?.mean;
    if (mean === undefined) throw new Error(`${task.name} has no result`);
    samples.get(task.name)!.push((BATCH * 1000) / mean);
  }
}

const jose = samples.get('jose jwtVerify RS256')!;
console.log(`\n## JWT verification (one valid token), ${ROUNDS} rounds\n${machineLine()}\n`);
console.log('| contender | ops/s (median) | min – max | speed vs jose, same round (median) |\n|---|---:|---:|---:|');
const rows = tasks.map(([name]) => {
  const values = samples.get(name)!;
  // Ratios are taken within a round, where both contenders met the same background load.
  const vsJose = median(values.map((value, round) => value / jose[round]!));
  const row = { name, opsPerSecond: median(values), min: Math.min(...values), max: Math.max(...values), vsJose };
  const k = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`| ${name} | ${k(row.opsPerSecond)} | ${k(row.min)} – ${k(row.max)} | ${row.vsJose.toFixed(2)}× |`);
  return row;
});
reportJson('security', rows);
