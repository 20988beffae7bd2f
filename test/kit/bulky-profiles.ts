import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ProfileData } from '@switchboard/profiler/storage';

/** Each bulky profile carries this much text of its own: 3,000 of them kept would be ~60 MiB. */
export const BULKY_PAYLOAD_CHARS = 20_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap in use once garbage is collected, for tests that a storage keeps memory flat. */
export function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

export function bulkyProfile(i: number): ProfileData {
  return {
    token: i.toString(16).padStart(6, '0'),
    parentToken: null,
    ip: '127.0.0.1',
    method: 'GET',
    url: `http://localhost/scan-${i}`,
    time: Date.now(),
    statusCode: 404,
    virtualType: 'request',
    childTokens: [],
    // A flat string of its own (repeat() would build a rope sharing its pieces).
    collectors: { request: { body: randomBytes(BULKY_PAYLOAD_CHARS / 2).toString('hex') } },
  };
}
