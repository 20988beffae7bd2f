import { describe, expect, it } from 'vitest';
import {
  ArgumentResolver,
  ControllerResolver,
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
  type RouteController,
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
    canResolve: (argument) => argument.name === 'note',
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

/** Serves one route as the router listener does: its controller and what the route gives it. */
class RouteWithController implements EventSubscriber<KernelEventMap> {
  constructor(readonly route: RouteController) {}

  getSubscribedEvents() {
    return {};
  }

  getRouteControllers(): Iterable<RouteController> {
    return [this.route];
  }
}

/** Sets `_tenant_id` on each request, and says so. */
class TenantIdListener implements EventSubscriber<KernelEventMap> {
  getSubscribedEvents() {
    return {};
  }

  getOwnedDeclarations() {
    return { requestAttributes: ['_tenant_id'] };
  }
}

describe('controller arguments and their sources', () => {
  const showNote = { route: 'notes_show', path: '/notes/:id', host: null, parameters: ['id'], defaults: ['_controller', 'format'] };
  const refusalOf = (kernel: HttpKernel): UnownedDeclarationError => {
    try {
      kernel.checkDeclarations();
    } catch (error) {
      if (error instanceof UnownedDeclarationError) return error;
      throw error;
    }
    throw new Error('not refused');
  };
  const kernelServing = (
    controller: RouteController['controller'],
    options: { resolvers?: ValueResolver[]; controllers?: ControllerResolver; subscribers?: Array<EventSubscriber<KernelEventMap>> } = {},
  ): HttpKernel => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    dispatcher.addSubscriber(new RouteWithController({ ...showNote, controller }));
    for (const subscriber of options.subscribers ?? []) dispatcher.addSubscriber(subscriber);
    return new HttpKernel({
      dispatcher,
      argumentResolver: new ArgumentResolver(options.resolvers ?? []),
      ...(options.controllers === undefined ? {} : { controllerResolver: options.controllers }),
      logger: new MemoryLogger(),
    });
  };

  it('refuses an argument nothing provides, naming the route, its parameters, the argument and the controller', async () => {
    const controller = defineController(['noteId', 'request'], () => new Response('never'), 'notes.show');
    const kernel = kernelServing(controller);
    const refusal = refusalOf(kernel);
    expect(refusal.unowned).toEqual([]);
    expect(refusal.unresolvable).toEqual([
      {
        route: 'notes_show',
        path: '/notes/:id',
        host: null,
        parameters: ['id'],
        controller: 'notes.show',
        argument: 'noteId',
        options: [],
      },
    ]);
    expect(refusal.message.split('\n')).toEqual([
      '1 controller argument(s) have no source, so each request to their route would fail:',
      '  - route "notes_show" (path "/notes/:id", parameters: id): argument "noteId" of controller "notes.show" is neither a route ' +
        'parameter nor resolvable: name it after a parameter, give it a default value, or register the resolver or listener that provides it.',
    ]);
    await expect(kernel.handle(Request.fromUrl('http://localhost/notes/1'))).rejects.toBeInstanceOf(UnownedDeclarationError);
  });

  it("takes the route's parameters and defaults, `request`, declared defaults, rest arguments and what listeners set", () => {
    const controller = defineController(
      ['id', 'format', 'request', '_route', '_tenant_id', { name: 'page', defaultValue: 1 }, { name: 'tags', variadic: true }],
      () => new Response('ok'),
    );
    const owner = { getSubscribedEvents: () => ({}), getOwnedDeclarations: () => ({ requestAttributes: ['_route'] }) };
    expect(() => kernelServing(controller, { subscribers: [owner, new TenantIdListener()] }).checkDeclarations()).not.toThrow();
    expect(refusalOf(kernelServing(controller, { subscribers: [owner] })).unresolvable.map((found) => found.argument)).toEqual([
      '_tenant_id',
    ]);
  });

  it('takes an argument a resolver of the ArgumentResolver says it gives, and names the option whose resolver is missing', () => {
    const controller = defineController([{ name: 'note', options: { note: { from: 'json' } } }], () => new Response('ok'), 'notes.create');
    const noteResolver: ValueResolver = {
      name: 'note',
      resolve: () => ['a note'],
      canResolve: (argument) => argument.options?.['note'] !== undefined,
    };
    expect(() => kernelServing(controller, { resolvers: [noteResolver] }).checkDeclarations()).not.toThrow();
    expect(refusalOf(kernelServing(controller)).message).toContain(
      'argument "note" of controller "notes.create" is neither a route parameter nor resolvable: ' +
        'add the resolver of its "note" option to the kernel\'s ArgumentResolver.',
    );
  });

  it('checks a controller named in the ControllerResolver; an unknown name is left to its request', () => {
    const controllers = new ControllerResolver({ 'notes.show': defineController(['noteId'], () => new Response('never')) });
    expect(refusalOf(kernelServing('notes.show', { controllers })).unresolvable.map((found) => found.argument)).toEqual(['noteId']);
    expect(() => kernelServing('notes.unknown', { controllers }).checkDeclarations()).not.toThrow();
  });

  it('lists the unowned declarations and the unresolvable arguments in one refusal', () => {
    const controller = defineController(['noteId'], () => new Response('never'), 'notes.show');
    const refusal = refusalOf(kernelServing(controller, { subscribers: [new OneRoute(hello, [adminRoute])] }));
    expect(refusal.message.split('\n').filter((line) => !line.startsWith('  - '))).toEqual([
      '1 route declaration(s) have no listener to act on them, so they would be silently ignored:',
      '1 controller argument(s) have no source, so each request to their route would fail:',
    ]);
  });
});
