import type { Authenticator } from '../authenticator/authenticator.js';

export interface FirewallConfig {
  /** Shown in the profiler and logs (`api`, `health`…). */
  name: string;
  /** Tested against the decoded request path; anchor it (`^/api`) unless you mean "anywhere". */
  pattern: RegExp;
  /** `false`: an open firewall, nothing is authenticated (health checks, the profiler). Default `true`. */
  security?: boolean;
  /** Marks requests `_stateless` (unless the route said otherwise). Default `true`. */
  stateless?: boolean;
  /** Tried in order; the first that finds credentials decides. Required when `security` is on. */
  authenticators?: readonly Authenticator[];
}

export interface Firewall {
  readonly name: string;
  readonly pattern: RegExp;
  readonly security: boolean;
  readonly stateless: boolean;
  readonly authenticators: readonly Authenticator[];
}

/** Firewalls in configuration order; the first whose pattern matches the path handles the request. */
export class FirewallMap {
  readonly firewalls: readonly Firewall[];

  constructor(configs: readonly FirewallConfig[]) {
    const names = new Set<string>();
    this.firewalls = configs.map((config) => {
      if (names.has(config.name)) throw new Error(`Firewall "${config.name}" is configured twice.`);
      names.add(config.name);
      const security = config.security ?? true;
      const authenticators = config.authenticators ?? [];
      if (security && authenticators.length === 0) {
        throw new Error(`Firewall "${config.name}" is secured but has no authenticator; add one or set security: false.`);
      }
      // A global or sticky regex keeps `lastIndex` between calls, which would make matching depend on earlier requests.
      const pattern =
        config.pattern.global || config.pattern.sticky
          ? new RegExp(config.pattern.source, config.pattern.flags.replace(/[gy]/g, ''))
          : config.pattern;
      return { name: config.name, pattern, security, stateless: config.stateless ?? true, authenticators };
    });
  }

  /** Runs on every request: a plain loop, no callback allocated per call. */
  match(path: string): Firewall | null {
    for (const firewall of this.firewalls) if (firewall.pattern.test(path)) return firewall;
    return null;
  }
}
