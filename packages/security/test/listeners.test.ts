import { generateKeyPairSync } from 'node:crypto';
import {
  ControllerArgumentsEvent,
  EventDispatcher,
  HttpKernel,
  Request,
  RequestEvent,
  RequestType,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { describe, expect, it } from 'vitest';
import {
  FirewallListener,
  FirewallMap,
  IsGrantedListener,
  JwtAuthenticator,
  SameOriginListener,
  StatelessCheckListener,
} from '../src/index.js';

const authenticator = new JwtAuthenticator({ publicKey: generateKeyPairSync('ed25519').publicKey, algorithms: ['EdDSA'] });
const firewall = new FirewallListener(
  new FirewallMap([
    { name: 'health', pattern: /^\/health/, security: false },
    { name: 'api', pattern: /^\/api/, authenticators: [authenticator] },
  ]),
);

describe('security listeners', () => {
  it('register at the priorities Symfony gives the same steps', () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    for (const subscriber of [firewall, new SameOriginListener(), new IsGrantedListener(), new StatelessCheckListener({ debug: true })]) {
      dispatcher.addSubscriber(subscriber);
    }
    const listed = [...dispatcher.getAllListeners()].flatMap(([event, listeners]) =>
      listeners.map((l) => `${event} ${l.priority} ${l.name}`),
    );
    expect(listed).toEqual([
      'kernel.request 8 FirewallListener.onKernelRequest',
      'kernel.controller_arguments 25 SameOriginListener.onControllerArguments',
      'kernel.controller_arguments 20 IsGrantedListener.onControllerArguments',
      'kernel.response -1000 StatelessCheckListener.onKernelResponse',
    ]);
  });

  it('answer synchronously when there is nothing to verify, so the kernel pays no promise', () => {
    const kernel = new HttpKernel({ dispatcher: new EventDispatcher<KernelEventMap>() });
    const requestEvent = (path: string, type = RequestType.MAIN) =>
      new RequestEvent(kernel, Request.fromUrl(`http://localhost${path}`), type);
    expect(firewall.onKernelRequest(requestEvent('/health'))).toBeUndefined();
    expect(firewall.onKernelRequest(requestEvent('/elsewhere'))).toBeUndefined();
    expect(firewall.onKernelRequest(requestEvent('/api/me'))).toBeInstanceOf(Promise);

    const request = Request.fromUrl('http://localhost/api/me');
    request.attributes.set('_is_granted', 'PUBLIC_ACCESS');
    const argumentsEvent = new ControllerArgumentsEvent(kernel, request, RequestType.MAIN, () => null, []);
    expect(new IsGrantedListener().onControllerArguments(argumentsEvent)).toBeUndefined();
  });

  it('the firewall leaves sub-requests alone (an error page is not authenticated again)', async () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    dispatcher.addSubscriber(firewall);
    const kernel = new HttpKernel({ dispatcher });
    const event = new RequestEvent(kernel, Request.fromUrl('http://localhost/api/me'), RequestType.SUB);
    // Declared main-request-only, the firewall is not called at all: the dispatch answers at once.
    expect(dispatcher.dispatch('kernel.request', event)).toBe(event);
    expect(event.hasResponse()).toBe(false);
    expect(event.request.attributes.has('_firewall')).toBe(false);
  });
});
