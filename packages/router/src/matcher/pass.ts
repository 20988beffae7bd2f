import { trimTrailingSlashes } from '../internal/decode-path.js';
import type { RouteMatch, TrailingSlashMode } from './match-result.js';

/** One matching pass over one path: its inputs and what the rejected routes left behind. */
export class Pass {
  /** Decoded. */
  readonly path: string;
  /** As received (percent-encoded). */
  readonly rawPath: string;
  readonly method: string;
  readonly scheme: string;
  readonly host: string;
  readonly mode: TrailingSlashMode;
  readonly trimmed: string;
  readonly requestSlash: boolean;
  /** GET for HEAD. */
  readonly canonical: string;
  /** Start/end offsets of the tree parameters on the current branch. */
  readonly offsets: number[];
  /** A route matched but for its method / scheme; the lists are only built by a collecting pass. */
  methodMismatch: boolean;
  schemeMismatch: boolean;
  allow: string[] | null;
  allowSchemes: string[] | null;
  /** Some route's path matched (whatever rejected it afterwards). */
  touched: boolean;
  /** Build the allowed method and scheme lists (only needed once a pass found no route). */
  collect: boolean;

  // Plain assignments in one fixed order (no field initializers, no parameter properties): the
  // cheapest construction V8 offers, and this object is built once per request.
  constructor(path: string, rawPath: string, method: string, scheme: string, host: string, mode: TrailingSlashMode) {
    this.path = path;
    this.rawPath = rawPath;
    this.method = method;
    this.scheme = scheme;
    this.host = host;
    this.mode = mode;
    // Most paths do not end with `/`: skip the trim call for them.
    this.trimmed = path.charCodeAt(path.length - 1) === 47 ? trimTrailingSlashes(path) : path;
    this.requestSlash = this.trimmed !== path;
    this.canonical = method === 'HEAD' ? 'GET' : method;
    // Room for four parameters up front, allocated with the array: an empty array would grow on
    // the first parameter, a literal would be copied on its first write. Each slot is written
    // before it is read (a leaf reads the offsets of its own branch only).
    this.offsets = new Array<number>(8);
    this.methodMismatch = false;
    this.schemeMismatch = false;
    this.allow = null;
    this.allowSchemes = null;
    this.touched = false;
    this.collect = false;
  }

  /** Runs the same pass again, this time building the allowed lists. */
  startCollecting(): void {
    this.collect = true;
    this.methodMismatch = false;
    this.schemeMismatch = false;
    this.touched = false;
  }
}

/** A GET/HEAD request reached a GET-capable route that differs only by its trailing slash: stop and retry the toggled path. */
export const STOP: unique symbol = Symbol('stop');
export type Outcome = RouteMatch | typeof STOP | undefined;


/**
 * The reference's "return with allowed methods and schemes cleared": a slash redirect takes over.
 * Ends the pass without a route.
 */
export function stop(pass: Pass): undefined {
  pass.allow = null;
  pass.allowSchemes = null;
  pass.methodMismatch = false;
  pass.schemeMismatch = false;
  return undefined;
}

