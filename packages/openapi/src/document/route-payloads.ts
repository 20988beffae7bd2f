import type { StandardSchemaV1 } from '@standard-schema/spec';
import { argumentMetadataOf } from '@switchboard/http-kernel/internal';
import { PAYLOAD_OPTION, type PayloadOptions, type PayloadSource } from '@switchboard/payload';
import type { Route } from '@switchboard/router';

/** One controller argument the payload step reads (`mapPayload`). */
export interface RoutePayload {
  readonly argument: string;
  readonly from: PayloadSource;
  readonly schema: StandardSchemaV1;
  /** An empty body is refused unless the argument has a default. */
  readonly required: boolean;
}

/** The payload arguments of a route's controller, in argument order; none for a controller given by name. */
export function routePayloads(route: Route): RoutePayload[] {
  const controller = route.defaults['_controller'];
  if (typeof controller !== 'function') return [];
  const payloads: RoutePayload[] = [];
  for (const argument of argumentMetadataOf(controller as (...args: never[]) => unknown)) {
    const options = argument.options?.[PAYLOAD_OPTION] as PayloadOptions | undefined;
    if (options === undefined) continue;
    payloads.push({ argument: argument.name, from: options.from, schema: options.schema, required: !argument.hasDefault });
  }
  return payloads;
}
