/**
 * `@switchboard/http-kernel/internal` — what the other Switchboard packages share with the kernel
 * and an application does not need: how a host calls any kernel, how steps run synchronously until
 * one waits (`andThen`, `attempt`), how errors are described in log lines, status texts,
 * controller metadata. It follows the packages' fixed version (they are released together) and
 * may change in any release.
 * @module
 */
export { handleEagerlyWith } from './contract/http-kernel-interface.js';
export { describeError } from './kernel/http-kernel.js';
export { errorHeadersOf, statusOf } from './error/error-status.js';
export { STATUS_TEXTS, statusText } from './error/http-error.js';
export { LEVEL_RANK } from './log/logger.js';
export { argumentMetadataOf, controllerName } from './controller/controller.js';
export { decodePath } from './http/decode-path.js';
export { isAbandonment } from './http/cancellation.js';
export { andThen, attempt, fromThenable, isThenable } from './internal/maybe-promise.js';
export { hasMembers } from './internal/has-members.js';
export { joinBytes } from './internal/join-bytes.js';
export { declaredLength, knownBodyLength } from './http/body-length.js';
export { defaultResponseHeaders } from './http/response-header-bag.js';
