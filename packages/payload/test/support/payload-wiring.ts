import { ArgumentResolver } from '@switchboard/http-kernel';
import { RequestPayloadValueResolver, type RequestPayloadOptions } from '../../src/index.js';
import type { HostKernelOptions } from '../../../../test/kit/host-kernel.js';

/** The payload resolver in both of its roles, as a host wires it: listener and argument value resolver. */
export function payloadWiring(options: RequestPayloadOptions = {}): Pick<HostKernelOptions, 'subscribers' | 'argumentResolver'> {
  const payload = new RequestPayloadValueResolver(options);
  return { subscribers: [payload], argumentResolver: new ArgumentResolver([payload]) };
}
