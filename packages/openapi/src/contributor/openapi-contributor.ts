import type { Route } from '@switchboard/router';
import type { SharedHeaderName, SharedResponseName } from '../responses/error-responses.js';
import type { SecurityRequirement, SecurityScheme } from '../spec/openapi-types.js';

/** One operation being documented: its route and the path it is documented under. */
export interface DocumentedOperation {
  readonly route: Route;
  /** The path template of this variant of the route (`/api/items/{id}`). */
  readonly pathTemplate: string;
}

/** What a contributor adds to one operation; every member may be left out. */
export interface OperationContribution {
  /** Shared responses the operation may answer (`Forbidden`, `TooManyRequests`, `NotModified`…). */
  readonly responses?: readonly SharedResponseName[];
  /** Shared headers every declared successful (2xx) response carries (`Cache-Control`, `ETag`…). */
  readonly successHeaders?: readonly SharedHeaderName[];
  /** The operation's `security`: the schemes that admit a caller (`[{}]` among them: none needed). */
  readonly security?: readonly SecurityRequirement[];
}

/**
 * What a package that acts on route defaults says about them in the document: the package owns
 * the defaults (`_cache`, `_rate_limit`, `_is_granted`…), so it is the one that reads them. The
 * http-cache, rate-limit and security packages ship one each on their `./openapi` entry; the app
 * lists those of the listeners it registers in the `contributors` option.
 */
export interface OpenApiContributor {
  /** Security schemes for `components.securitySchemes`, by name. */
  readonly securitySchemes?: Readonly<Record<string, SecurityScheme>>;
  /** What this package adds to the operation; `undefined` when nothing. */
  describeOperation(operation: DocumentedOperation): OperationContribution | undefined;
}
