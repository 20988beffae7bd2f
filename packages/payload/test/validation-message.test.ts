import { UnprocessableEntityHttpError } from '@switchboard/http-kernel';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validatePayload } from '../src/validation/validate-payload.js';

async function messageFor(schema: z.ZodType, value: unknown): Promise<string> {
  const error = await validatePayload(schema, value, 'item', 100).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UnprocessableEntityHttpError);
  return (error as Error).message;
}

describe('the 422 message', () => {
  it('ends with one period whether or not the last violation message has its own', async () => {
    const withPeriod = z.object({ quantity: z.number().max(10, 'Required: a whole number from 0 to 10.') });
    expect(await messageFor(withPeriod, { quantity: 11 })).toBe(
      'The "item" payload is invalid: /quantity: Required: a whole number from 0 to 10.',
    );
    const withoutPeriod = z.object({ quantity: z.number().max(10, 'too big') });
    expect(await messageFor(withoutPeriod, { quantity: 11 })).toBe('The "item" payload is invalid: /quantity: too big.');
  });

  it('counts what it leaves out after the fifth violation', async () => {
    const message = await messageFor(z.array(z.number({ error: 'Not a number.' })), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(message).toBe(
      'The "item" payload is invalid: /0: Not a number.; /1: Not a number.; /2: Not a number.; /3: Not a number.; /4: Not a number. (and 2 more).',
    );
  });
});
