/**
 * A profile is fully redacted however many secret-named values the request carried: a query of
 * thousands of `token=…` values once made every string of the profile be searched for every one
 * of them. How the build time grows with their count is measured in
 * `bench/redaction-scaling.bench.ts`, not here.
 */
import { expect, it } from 'vitest';
import { defineController, JsonResponse, Request } from '@switchboard/http-kernel';
import { profiledKernel } from './support/profiled-kernel.js';

const hello = defineController([], () => new JsonResponse({ hello: 'world' }));

it('redacts every one of 8,000 secret-named query values from the URL, the query panel and the headers', async () => {
  const query = Array.from({ length: 8000 }, (_, i) => `token=secret-value-${i}`).join('&');
  const app = profiledKernel({ '/hello': hello });
  const response = await app.handle(
    Request.fromUrl(`http://localhost/hello?${query}`, { headers: { referer: `http://localhost/?${query}` } }),
  );
  const profile = await app.profiler.loadProfile(response.headers.get('x-debug-token')!);
  expect(JSON.stringify(profile?.toData())).not.toContain('secret-value-');
  expect(profile?.url.startsWith('http://localhost/hello?token=[redacted]&token=[redacted]&')).toBe(true);
});
