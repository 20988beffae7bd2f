/**
 * `@switchboard/profiler/testing` — for authors of profile storages: the contract every storage
 * meets, as cases their own tests run (with any test runner), and the small profiles it writes.
 * @module
 */
export { storageContract, type StorageContractCase, type StorageUnderTest } from './testing/storage-contract.js';
export { sampleProfile } from './testing/sample-profile.js';
