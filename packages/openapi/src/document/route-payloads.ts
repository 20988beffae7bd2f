import type { StandardSchemaV1 } from '@standard-schema/spec';
import { argumentMetadataOf } from '@switchboard/http-kernel/internal';
import { PAYLOAD_OPTION, type PayloadMapping, type PayloadSource, type ValueSchemas } from '@switchboard/payload';
import type { Route } from '@switchboard/router';

/** One controller argument the payload step reads (`mapPayload`). */
export interface RoutePayload {
  readonly argument: string;
  readonly from: PayloadSource;
  readonly schema: StandardSchemaV1;
  /** An empty body is refused unless the argument has a default. */
  readonly required: boolean;
}

/** One header or cookie a controller argument reads (`mapPayload` from `headers` or `cookies`). */
export interface RouteValue {
  readonly argument: string;
  readonly in: 'header' | 'cookie';
  readonly name: string;
  readonly schema: StandardSchemaV1;
}

/** The payload arguments and the header and cookie values of a route's controller, in argument order; none for a controller given by name. */
export function routePayloads(route: Route): { payloads: RoutePayload[]; values: RouteValue[] } {
  const payloads: RoutePayload[] = [];
  const values: RouteValue[] = [];
  const controller = route.defaults['_controller'];
  if (typeof controller !== 'function') return { payloads, values };
  for (const argument of argumentMetadataOf(controller as (...args: never[]) => unknown)) {
    const options = argument.options?.[PAYLOAD_OPTION] as PayloadMapping | undefined;
    if (options === undefined) continue;
    if (options.from === 'headers' || options.from === 'cookies') {
      const where = options.from === 'headers' ? 'header' : 'cookie';
      for (const [name, schema] of Object.entries(options.schema as ValueSchemas))
        values.push({ argument: argument.name, in: where, name, schema });
    } else {
      // Any other source reads one payload with one schema (the payload package checked the mapping when it was declared).
      const schema = options.schema as StandardSchemaV1;
      payloads.push({ argument: argument.name, from: options.from, schema, required: !argument.hasDefault });
    }
  }
  return { payloads, values };
}
