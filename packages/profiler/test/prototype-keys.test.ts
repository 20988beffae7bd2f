import { describe, expect, it } from 'vitest';
import { Profile } from '../src/index.js';
import { Redactor } from '../src/profile/redactor.js';
import { describeValue } from '../src/profile/describe-value.js';

/** A request body or log context parsed from JSON may hold an own `__proto__` key. */
const hostile = (): Record<string, unknown> => JSON.parse('{"__proto__":{"polluted":true},"constructor":"c"}') as Record<string, unknown>;

describe('keys named after prototype members', () => {
  it('are kept as keys by describeValue and by the redactor, never turned into a prototype', () => {
    for (const copy of [describeValue(hostile()), new Redactor({ secrets: ['secret'] }).deep(hostile())] as Array<
      Record<string, unknown>
    >) {
      expect(Object.keys(copy)).toEqual(['__proto__', 'constructor']);
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      expect(JSON.parse(JSON.stringify(copy))).toEqual(hostile());
    }
  });

  it('are not panels of a profile', () => {
    const profile = new Profile({
      token: 'abc123',
      ip: '::1',
      method: 'GET',
      url: '/',
      time: 0,
      statusCode: 200,
      virtualType: 'request',
      collectors: { request: {} },
    });
    for (const name of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
      expect(profile.hasCollector(name)).toBe(false);
      expect(profile.getCollector(name)).toBeUndefined();
    }
    expect(profile.hasCollector('request')).toBe(true);
  });
});
