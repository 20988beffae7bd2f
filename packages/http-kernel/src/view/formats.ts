import type { Encoder } from './encoder.js';
import { eventStreamEncoder, jsonEncoder, ndjsonEncoder } from './built-in-encoders.js';

/** The route default that lists a route's formats, owned by the `ViewListener`. */
export const FORMATS_DEFAULT = '_formats';
/** What a route that declares no formats offers for a value. */
export const DEFAULT_FORMATS: readonly string[] = ['json'];
/** What a route that declares no formats offers for an async iterable. */
export const DEFAULT_STREAM_FORMATS: readonly string[] = ['ndjson', 'event-stream'];
/** JSON, NDJSON and event streams. */
export const BUILT_IN_ENCODERS: readonly Encoder[] = [jsonEncoder, ndjsonEncoder, eventStreamEncoder];

/**
 * The encoders of a route's `_formats` default (in its order), or `null` when it declares none,
 * for tools that describe routes (the OpenAPI document). `encoders` are those given to the
 * `ViewListener` besides the built-in ones. Throws on a value that is not a non-empty list of known
 * format names.
 */
export function declaredEncoders(
  defaults: Readonly<Record<string, unknown>>,
  encoders: readonly Encoder[] = [],
  route = 'unnamed',
): Encoder[] | null {
  const formats = defaults[FORMATS_DEFAULT];
  if (formats === undefined) return null;
  return encodersOf(formats, encoderTable([...BUILT_IN_ENCODERS, ...encoders]), route);
}

/** Encoders by format name; later ones replace earlier ones of the same name. */
export function encoderTable(encoders: readonly Encoder[]): ReadonlyMap<string, Encoder> {
  return new Map(encoders.map((encoder) => [encoder.format, encoder]));
}

/** The encoders named by a `_formats` value, checked. */
export function encodersOf(formats: unknown, table: ReadonlyMap<string, Encoder>, route: string): Encoder[] {
  if (!Array.isArray(formats) || formats.length === 0 || !formats.every((format) => typeof format === 'string')) {
    throw new TypeError(`The _formats option of route "${route}" must be a non-empty list of format names, e.g. ['json', 'ndjson'].`);
  }
  return formats.map((format: string) => {
    const encoder = table.get(format);
    if (encoder === undefined) {
      throw new TypeError(
        `Route "${route}" offers the format "${format}", which no encoder writes (known: ${[...table.keys()].join(', ')}); ` +
          'register its encoder with the ViewListener.',
      );
    }
    return encoder;
  });
}
