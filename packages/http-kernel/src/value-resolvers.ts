/**
 * `@switchboard/http-kernel/value-resolvers` — the argument value resolvers an `ArgumentResolver`
 * has by default, for an application that lists its resolvers itself.
 * @module
 */
export { RequestValueResolver } from './controller/value-resolver/request-value-resolver.js';
export { RequestAttributeValueResolver } from './controller/value-resolver/request-attribute-value-resolver.js';
export { DefaultValueResolver } from './controller/value-resolver/default-value-resolver.js';
