import { z } from 'zod';

const MAX_NAME_LENGTH = 200;
const MAX_QUANTITY = 1_000_000;
const NAME_REQUIRED = 'Required: a non-empty string.';
const QUANTITY_RANGE = `Required: a whole number from 0 to ${MAX_QUANTITY}.`;
const NO_NUL = 'Must not contain the NUL character (U+0000).';

/**
 * What a client sends to create an item, validated by the payload step (a 422 lists each
 * violation as `{ path: '/name', message }`). Unknown members are dropped; the name is trimmed.
 * JSON can carry `\u0000` but a PostgreSQL text column cannot store it, so it is a violation here
 * rather than a database error later. The OpenAPI document shows it as the `NewItem` component.
 */
export const NewItemSchema = z
  .object({
    name: z
      .string({ error: NAME_REQUIRED })
      .trim()
      .min(1, NAME_REQUIRED)
      .max(MAX_NAME_LENGTH, `At most ${MAX_NAME_LENGTH} characters.`)
      .refine((name) => !name.includes('\0'), NO_NUL),
    quantity: z.number({ error: QUANTITY_RANGE }).int(QUANTITY_RANGE).min(0, QUANTITY_RANGE).max(MAX_QUANTITY, QUANTITY_RANGE),
  })
  .meta({ id: 'NewItem' });
