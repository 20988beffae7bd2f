// The node adapter in front of a trivial handler instead of the kernel: separates the adapter's
// cost (request conversion, response writing) from the kernel's and its listeners'. The handler
// answers synchronously (`handleEagerly`), as the kernel does for these two routes.
import type { RequestListener } from 'node:http';
import { JsonResponse, type HttpKernelInterface, type Request, type Response } from '@switchboard/http-kernel';
import { createRequestListener } from '@switchboard/node-adapter';
import { HELLO_BODY, HELLO_PATH, NOT_FOUND_BODY } from '../contract.js';

function answer(request: Request): Response {
  return request.method === 'GET' && request.rawPath === HELLO_PATH
    ? new JsonResponse(HELLO_BODY)
    : new JsonResponse(NOT_FOUND_BODY, 404, undefined, 'application/problem+json');
}

export function createListener(): RequestListener {
  const handler: HttpKernelInterface = { handle: async (request) => answer(request), handleEagerly: answer };
  return createRequestListener(handler) as RequestListener;
}
