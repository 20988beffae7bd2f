import { defineController, RedirectResponse, type Request } from '@switchboard/http-kernel';
import '../request-attributes.js';

/**
 * The controller of a trailing-slash (or scheme) redirect: a 301 to the `_redirect_url` attribute
 * the router listener computed. Going through a controller, like Symfony's redirect controller,
 * keeps the usual lifecycle (profiler, response listeners) for redirects too; a firewall lets
 * them through, since only the target decides access.
 */
export const redirectController = defineController(
  ['request'],
  (request: Request) => new RedirectResponse(request.attributes.get('_redirect_url') ?? '/', 301),
  'RouterListener::redirect',
);
