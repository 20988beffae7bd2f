/**
 * @switchboard/operations — what an operator needs around an API: an id per request
 * (`RequestIdListener`, `request.logger`), one access line per request (`AccessLogListener`),
 * load shedding under pressure (`PressureMonitor`, `PressureListener`) and readiness (`Readiness`).
 * @module
 */
export {
  generateRequestId,
  isSafeRequestId,
  RequestIdListener,
  type RequestIdListenerOptions,
} from './request-id/request-id-listener.js';
export { AccessLogListener, type AccessLogContext, type AccessLogListenerOptions } from './access-log/access-log-listener.js';
export {
  PressureMonitor,
  type PressureCause,
  type PressureMonitorOptions,
  type PressureReadings,
  type PressureThresholds,
} from './pressure/pressure-monitor.js';
export {
  PressureListener,
  REQUEST_SHED_CHANNEL,
  type LoadShedding,
  type PressureListenerOptions,
  type RequestShedMessage,
} from './pressure/pressure-listener.js';
export {
  Readiness,
  type CheckOutcome,
  type DependencyCheck,
  type ReadinessOptions,
  type ReadinessReport,
} from './readiness/readiness.js';
