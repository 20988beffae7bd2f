import {
  BadRequestHttpError,
  UnprocessableEntityHttpError,
  UnsupportedMediaTypeHttpError,
  type Request,
} from '@switchboard/http-kernel';
import type { NewItem } from './item.js';

interface Violation {
  path: string;
  message: string;
}

const MAX_NAME_LENGTH = 200;
const MAX_QUANTITY = 1_000_000;

/**
 * Reads and validates a new item from a JSON body: 415 for another media type, 400 for malformed
 * JSON, 422 naming each bad field. (To be replaced by the payload-mapping package.)
 */
export async function readNewItem(request: Request): Promise<NewItem> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json' && !(type?.endsWith('+json') ?? false)) {
    throw new UnsupportedMediaTypeHttpError('Send the item as application/json.');
  }
  const text = request.body === null ? '' : await request.body.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new BadRequestHttpError('The request body is not valid JSON.', { cause });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw invalid([{ path: '', message: 'Expected a JSON object.' }]);
  }
  const { name, quantity } = data as Record<string, unknown>;
  const violations: Violation[] = [];
  if (typeof name !== 'string' || name.trim() === '') violations.push({ path: 'name', message: 'Required: a non-empty string.' });
  else if (name.length > MAX_NAME_LENGTH) violations.push({ path: 'name', message: `At most ${MAX_NAME_LENGTH} characters.` });
  if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 0 || quantity > MAX_QUANTITY) {
    violations.push({ path: 'quantity', message: `Required: a whole number from 0 to ${MAX_QUANTITY}.` });
  }
  if (violations.length > 0) throw invalid(violations);
  return { name: (name as string).trim(), quantity: quantity as number };
}

function invalid(violations: Violation[]): UnprocessableEntityHttpError {
  const fields = violations.map((violation) => violation.path || '(body)').join(', ');
  return new UnprocessableEntityHttpError(`Invalid item: ${fields}.`, { details: { violations } });
}
