import { describe, expect, it } from 'vitest';
import { parseAcceptLanguage } from '../src/http/accept-language.js';
import { MediaTypeNegotiator, negotiateMediaType, parseAccept } from '../src/negotiation.js';

/** What real clients send, as of late 2026. */
const FIREFOX = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CHROME =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const SAFARI = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CHROME_IMAGE = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const CHROME_FETCH = '*/*';
const EVENT_SOURCE = 'text/event-stream';
const CURL = '*/*';

const API = ['application/json', 'application/x-ndjson'];
const PAGE = ['text/html', 'application/json', 'text/plain'];

describe('MediaTypeNegotiator', () => {
  it.each([
    // No header, an empty one, or only garbage: anything goes, the first offer.
    [undefined, API, 'application/json'],
    ['', API, 'application/json'],
    ['garbage', API, 'application/json'],
    [';;;,,,', API, 'application/json'],
    // Browsers' real headers.
    [FIREFOX, PAGE, 'text/html'],
    [CHROME, PAGE, 'text/html'],
    [SAFARI, PAGE, 'text/html'],
    [CHROME, API, 'application/json'],
    [CHROME_IMAGE, API, 'application/json'],
    [CHROME_FETCH, API, 'application/json'],
    [EVENT_SOURCE, ['application/x-ndjson', 'text/event-stream'], 'text/event-stream'],
    [CURL, PAGE, 'text/html'],
    // Exact types, case-insensitively, with or without a charset.
    ['application/x-ndjson', API, 'application/x-ndjson'],
    ['APPLICATION/X-NDJSON', API, 'application/x-ndjson'],
    ['application/json; charset=utf-8', API, 'application/json'],
    // Weights.
    ['application/json;q=0.5, application/x-ndjson', API, 'application/x-ndjson'],
    ['application/x-ndjson;q=0.2, */*;q=0.1', API, 'application/x-ndjson'],
    ['text/html;q=0.5, text/plain;q=0.9', PAGE, 'text/plain'],
    ['text/html;Q=0.5, text/plain;q=0.900', PAGE, 'text/plain'],
    // q=0 refuses, even when a wildcard would accept.
    ['application/json;q=0, */*', API, 'application/x-ndjson'],
    ['text/html;q=0, */*', PAGE, 'application/json'],
    ['*/*;q=0', API, null],
    ['application/json;q=0, application/x-ndjson;q=0', API, null],
    // Specificity: the most specific matching range gives an offer its weight.
    ['text/*;q=0.3, text/plain;q=0.9, */*;q=0.1', PAGE, 'text/plain'],
    ['text/*, text/html;q=0.2', PAGE, 'text/plain'],
    ['application/*', PAGE, 'application/json'],
    ['text/*', PAGE, 'text/html'],
    ['text/plain, */*', PAGE, 'text/plain'],
    // Equal weights: the more specific range, then the range listed first, then the offers' order.
    ['*/*, application/x-ndjson', API, 'application/x-ndjson'],
    ['application/x-ndjson, application/json', API, 'application/x-ndjson'],
    ['application/json, application/x-ndjson', API, 'application/json'],
    // Nothing acceptable.
    ['application/xml', API, null],
    ['image/png', PAGE, null],
    ['text/*', API, null],
    // Malformed ranges are skipped, the others kept.
    ['garbage, application/x-ndjson', API, 'application/x-ndjson'],
    ['application/json;q=7, application/x-ndjson;q=0.2', API, 'application/x-ndjson'],
    ['application/json;q=abc, application/xml', API, null],
    ['*/json, application/xml', API, null],
  ])('Accept %j among %j → %j', (accept, offered, expected) => {
    expect(negotiateMediaType(accept, offered)).toBe(expected);
  });

  it('answers each header for itself when one negotiator sees several in turn, and the same one again', () => {
    const negotiator = new MediaTypeNegotiator(['text/html', 'application/json']);
    const headers = ['application/json', 'text/html', 'image/png', 'application/json', 'text/*;q=0.1, application/json;q=0.9'];
    expect(headers.map((accept) => negotiator.negotiate(accept))).toEqual([
      'application/json',
      'text/html',
      null,
      'application/json',
      'application/json',
    ]);
    expect(negotiator.negotiate(undefined)).toBe('text/html');
    expect(negotiator.negotiate('image/png')).toBeNull();
  });

  it('matches a range’s parameters against the offer’s, a parameter making a range more specific', () => {
    const levels = new MediaTypeNegotiator(['text/html;level=1', 'text/html', 'text/plain']);
    expect(levels.negotiate('text/html;level=1')).toBe('text/html;level=1');
    expect(levels.negotiate('text/html;level=2')).toBeNull();
    // RFC 9110 §12.5.1's example: each type gets the weight of its most specific range.
    const rfc = 'text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, text/plain;format=fixed;q=0.4, */*;q=0.5';
    expect(new MediaTypeNegotiator(['text/plain;format=flowed', 'text/plain']).negotiate(rfc)).toBe('text/plain;format=flowed');
    expect(new MediaTypeNegotiator(['text/plain;format=fixed', 'text/plain']).negotiate(rfc)).toBe('text/plain');
    expect(new MediaTypeNegotiator(['text/html', 'image/jpeg']).negotiate(rfc)).toBe('image/jpeg');
  });

  it('reads quoted parameter values, commas and semicolons in them included', () => {
    expect(parseAccept('text/plain;title="a, b; c";q=0.5, text/html')).toEqual([
      { type: 'text', subtype: 'plain', parameters: [['title', 'a, b; c']], quality: 0.5, index: 0 },
      { type: 'text', subtype: 'html', parameters: [], quality: 1, index: 1 },
    ]);
    expect(parseAccept('text/plain;title="unterminated, text/html')).toEqual([]);
  });

  it('ignores accept extensions after the weight', () => {
    expect(parseAccept('application/json;q=0.5;ext=1')).toEqual([
      { type: 'application', subtype: 'json', parameters: [], quality: 0.5, index: 0 },
    ]);
  });

  it('refuses to offer a wildcard or nothing', () => {
    expect(() => new MediaTypeNegotiator([])).toThrow(RangeError);
    expect(() => new MediaTypeNegotiator(['application/*'])).toThrow(/cannot be offered|not a media type/);
  });

  it('reads only the first 64 ranges of a huge header', () => {
    const huge = `${'image/png, '.repeat(5000)}application/json`;
    expect(negotiateMediaType(huge, API)).toBeNull();
  });

  it('shares its weight grammar with Accept-Language', () => {
    expect(parseAcceptLanguage('fr-CH, fr;q=0.9, en;Q=0.8, de;q=7, *;q=0.5, it;q=0')).toEqual([
      { range: 'fr-ch', quality: 1 },
      { range: 'fr', quality: 0.9 },
      { range: 'en', quality: 0.8 },
      { range: '*', quality: 0.5 },
    ]);
  });
});
