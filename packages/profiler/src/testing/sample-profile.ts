import type { ProfileData } from '../profile/profile.js';

/** A small profile of `token` at `time` (a request answered 200), with `overrides` applied. */
export function sampleProfile(token: string, time: number, overrides: Partial<ProfileData> = {}): ProfileData {
  return {
    token,
    parentToken: null,
    ip: '127.0.0.1',
    method: 'GET',
    url: `http://localhost/${token}`,
    time,
    statusCode: 200,
    virtualType: 'request',
    childTokens: [],
    collectors: { request: { note: token } },
    ...overrides,
  };
}
