/**
 * A stored profile keeps what its pages show of the request, not the request's transport: the
 * memory storage holds hundreds of profiles, and each one keeping node's request and response
 * alive made garbage collection the largest cost of debug mode.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { defineController, JsonResponse, Request } from '@switchboard/http-kernel';
import { profiledKernel } from './support/profiled-kernel.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const hello = defineController([], () => new JsonResponse({ hello: 'world' }));

it("lets the request's connection go once the profile is saved, and still shows the request", async () => {
  const app = profiledKernel({ '/hello': hello });
  let connection: { destroyed: boolean } | null = { destroyed: false };
  const released = new WeakRef(connection);
  const response = await app.handle(Request.fromUrl('http://localhost/hello?page=2', { connection }));
  connection = null;
  // Two collections: the first may only mark what the second frees.
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  expect(released.deref()).toBeUndefined();
  const profile = await app.profiler.loadProfile(response.headers.get('x-debug-token')!);
  expect(profile?.url).toBe('http://localhost/hello?page=2');
  expect(profile?.getCollector<{ route: string | null }>('request')?.route).toBe('/hello');
});
