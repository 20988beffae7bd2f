import { JsonResponse, defineController } from '@switchboard/http-kernel';
import { defineResponses } from '@switchboard/openapi';
import { Route } from '@switchboard/router';
import { z } from 'zod';
import type { Wiring } from './wiring.js';

export const HEALTH_PATH = '/health';

/** `GET /health`: the process is up and answers; no dependency is checked (a liveness probe). */
const healthController = defineController([], () => new JsonResponse({ status: 'ok' }, 200, { 'cache-control': 'no-store' }), 'health');

const HEALTH_RESPONSES = defineResponses({ 200: z.object({ status: z.literal('ok') }) });

/** The host's own demo route, `GET /health`. */
export function wireHealth(): Wiring {
  return {
    routes: [
      new Route('health', HEALTH_PATH, {
        methods: ['GET'],
        controller: healthController,
        defaults: { _load_shedding: 'exempt', _responses: HEALTH_RESPONSES },
      }),
    ],
  };
}
