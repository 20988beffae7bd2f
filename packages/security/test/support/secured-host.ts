import type { EventDispatcher, KernelEventMap, Logger } from '@switchboard/http-kernel';
import {
  FirewallListener,
  FirewallMap,
  IsGrantedListener,
  JwtAuthenticator,
  JwtTokenIssuer,
  loadJwtKeys,
  SameOriginListener,
  StatelessCheckListener,
  type FirewallConfig,
  type SameOriginOptions,
  type SecurityUser,
} from '../../src/index.js';
import { generateKeyFiles } from './keys.js';
import type { LeakLedger } from './leak-ledger.js';
import { startTestHost, type TestHost, type TestRoute } from './test-host.js';

export interface SecuredHost extends TestHost {
  /** A valid token for `user` from the host's issuer. */
  tokenFor(user: SecurityUser): Promise<string>;
}

export interface SecuredHostOptions {
  ledger: LeakLedger;
  routes: readonly TestRoute[];
  debug?: boolean;
  sameOrigin?: SameOriginOptions;
  /** Firewalls before the default `^/api` one (JWT) — open ones, say. */
  extraFirewalls?: readonly FirewallConfig[];
  setup?(dispatcher: EventDispatcher<KernelEventMap>, logger: Logger): void;
}

/**
 * The package's listeners wired as a host would: keys generated on disk (encrypted private key,
 * secrets registered in the ledger), the `^/api` JWT firewall, the request-forgery check,
 * authorization and the stateless check.
 */
export async function startSecuredHost(options: SecuredHostOptions): Promise<SecuredHost> {
  const files = generateKeyFiles('rsa');
  options.ledger.addSecret(files.passphrase);
  for (const fragment of files.secretFragments) options.ledger.addSecret(fragment);
  const keys = loadJwtKeys(files);
  const issuer = new JwtTokenIssuer({ privateKey: keys.privateKey!, ttl: 300 });
  const authenticator = new JwtAuthenticator({ publicKey: keys.publicKey });
  const debug = options.debug ?? true;
  const host = await startTestHost({
    ledger: options.ledger,
    routes: options.routes,
    debug,
    setup(dispatcher, logger) {
      dispatcher.addSubscriber(
        new FirewallListener(
          new FirewallMap([...(options.extraFirewalls ?? []), { name: 'api', pattern: /^\/api/, authenticators: [authenticator] }]),
          { logger },
        ),
      );
      dispatcher.addSubscriber(new SameOriginListener(options.sameOrigin));
      dispatcher.addSubscriber(new IsGrantedListener());
      dispatcher.addSubscriber(new StatelessCheckListener({ debug, logger }));
      options.setup?.(dispatcher, logger);
    },
  });
  return { ...host, tokenFor: (user) => issuer.issueToken(user) };
}
