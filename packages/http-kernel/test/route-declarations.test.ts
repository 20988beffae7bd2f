import { describe, expect, it } from 'vitest';
import {
  ArgumentResolver,
  defineController,
  EventDispatcher,
  HttpKernel,
  MemoryLogger,
  PendingArgument,
  Request,
  Response,
  UnownedDeclarationError,
  type EventSubscriber,
  type KernelEventMap,
  type RequestEvent,
  type RouteDeclaration,
  type ValueResolver,
} from '../src/index.js';

/** Routes every request to `controller` and declares what its route asks for, as the router listener does. */
class OneRoute implements EventSubscriber<KernelEventMap> {
  constructor(
    readonly controller: (...args: never[]) => unknown,
    readonly declarations: RouteDeclaration[],
  ) {}

  getSubscribedEvents() {
    return { 'kernel.request': [this.onRequest, 32] as const };
  }

  getRouteDeclarations(): Iterable<RouteDeclaration> {
    return this.declarations;
  }

  onRequest(event: RequestEvent): void {
    event.request.attributes.set('_controller', this.controller);
  }
}

/** Acts on `_tenant` (an app's own route default). */
class TenantListener implements EventSubscriber<KernelEventMap> {
  getSubscribedEvents() {
    return {};
  }

  getOwnedDeclarations() {
    return { routeDefaults: ['_tenant'] };
  }
}

const hello = defineController([], () => new Response('hello'));
const tenantRoute: RouteDeclaration = { route: 'notes_list', name: '_tenant', kind: 'route default' };
const adminRoute: RouteDeclaration = { route: 'notes_delete', name: '_is_granted', kind: 'route default' };
const payloadArgument: RouteDeclaration = { route: 'notes_create', name: 'payload', kind: 'argument option', argument: 'note' };

function kernelWith(...subscribers: Array<EventSubscriber<KernelEventMap>>): HttpKernel {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  for (const subscriber of subscribers) dispatcher.addSubscriber(subscriber);
  return new HttpKernel({ dispatcher, logger: new MemoryLogger() });
}

describe('route declarations and their owners', () => {
  it('lists every unowned declaration with its route and the listener to register', () => {
    const kernel = kernelWith(new OneRoute(hello, [tenantRoute, adminRoute, payloadArgument]));
    let thrown: unknown;
    try {
      kernel.checkDeclarations();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnownedDeclarationError);
    expect((thrown as UnownedDeclarationError).unowned).toEqual([tenantRoute, adminRoute, payloadArgument]);
    const lines = (thrown as Error).message.split('\n');
    expect(lines.slice(1)).toEqual([
      '  - route "notes_list": route default "_tenant": register the subscriber that owns it (getOwnedDeclarations).',
      '  - route "notes_delete": route default "_is_granted": register IsGrantedListener from @switchboard/security.',
      '  - route "notes_create": argument "note" option "payload": register RequestPayloadValueResolver from @switchboard/payload, ' +
        'with dispatcher.addSubscriber as well as in the ArgumentResolver.',
    ]);
  });

  it('passes once a registered subscriber owns each declaration, and fails again when it is removed', async () => {
    const owner = new TenantListener();
    const kernel = kernelWith(new OneRoute(hello, [tenantRoute]), owner);
    expect(() => kernel.checkDeclarations()).not.toThrow();
    expect((await kernel.handle(Request.fromUrl('http://localhost/'))).body).toBe('hello');
    kernel.dispatcher.removeSubscriber(owner);
    expect(() => kernel.checkDeclarations()).toThrow(UnownedDeclarationError);
  });

  it('refuses the first request, before any listener or controller runs, when a declaration has no owner', async () => {
    let called = 0;
    const controller = defineController([], () => {
      called++;
      return new Response('open');
    });
    const kernel = kernelWith(new OneRoute(controller, [adminRoute]));
    await expect(kernel.handle(Request.fromUrl('http://localhost/'))).rejects.toBeInstanceOf(UnownedDeclarationError);
    await expect(kernel.handle(Request.fromUrl('http://localhost/'))).rejects.toBeInstanceOf(UnownedDeclarationError);
    expect(called).toBe(0);
  });
});

describe('a pending argument that reaches the controller', () => {
  class PendingNote extends PendingArgument {
    override readonly argumentName = 'note';
    override readonly missingRegistration = 'NoteResolver with dispatcher.addSubscriber';
  }
  const pendingResolver: ValueResolver = {
    name: 'pending_note',
    resolve: (_request, argument) => (argument.name === 'note' ? [new PendingNote()] : null),
  };

  it('fails the request with an error that names the registration, and the controller never runs', async () => {
    let received: unknown = 'not called';
    const controller = defineController(['note'], (note: unknown) => {
      received = note;
      return new Response('created', 201);
    });
    const dispatcher = new EventDispatcher<KernelEventMap>();
    dispatcher.addSubscriber(new OneRoute(controller, []));
    const kernel = new HttpKernel({ dispatcher, argumentResolver: new ArgumentResolver([pendingResolver]), logger: new MemoryLogger() });
    await expect(kernel.handle(Request.fromUrl('http://localhost/'), undefined, false)).rejects.toThrow(
      'would receive a stand-in for its "note" argument: register NoteResolver with dispatcher.addSubscriber.',
    );
    expect(received).toBe('not called');
    expect((await kernel.handle(Request.fromUrl('http://localhost/'))).status).toBe(500);
  });
});
