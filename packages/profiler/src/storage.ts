/**
 * `@switchboard/profiler/storage` — what a profile storage is made of, for authors of storages:
 * the contract, the bounds and search helpers, and the bounded write-behind queue that lets
 * `write` return at once while a single writer sends batches to the backend.
 * @module
 */
export {
  DEFAULT_SEARCH_LIMIT,
  DEFAULT_STORAGE_BOUNDS,
  findNewestFirst,
  matchesSearch,
  mergeQueuedAndStored,
  normaliseIp,
  resolveBounds,
  type ProfilerStorage,
  type ProfilerStorageStatus,
  type ProfileSearch,
  type StorageBounds,
} from './storage/profiler-storage.js';
export {
  DEFAULT_MAX_PENDING_BYTES,
  PROFILE_DROPPED_CHANNEL,
  QueuedProfile,
  WriteBehindQueue,
  type BatchWriter,
  type ProfileDroppedMessage,
  type WriteBehindQueueOptions,
  type WriteBoundsOptions,
} from './storage/write-behind-queue.js';
export { summaryOf, type ProfileData, type ProfileSummary } from './profile/profile.js';
export { RecordedProfile, profileJson, profileSize } from './profile/recorded-profile.js';
