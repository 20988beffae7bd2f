import { describe, expect, it } from 'vitest';
import { negotiateRenderer } from '../src/index.js';

const html = { name: 'html', accepts: ['text/html'] };
const json = { name: 'json', accepts: ['application/problem+json', 'application/json'] };
const text = { name: 'text', accepts: ['text/plain'] };
const formats = [html, json, text] as const;
const pick = (accept: string | undefined) => negotiateRenderer(accept, formats).name;

describe('negotiateRenderer', () => {
  it.each([
    [undefined, 'html'],
    ['', 'html'],
    ['*/*', 'html'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'html'],
    ['application/json', 'json'],
    ['application/problem+json', 'json'],
    ['APPLICATION/JSON; charset=utf-8', 'json'],
    ['application/*', 'json'],
    ['text/plain', 'text'],
    ['text/*', 'html'],
    ['text/plain, */*', 'text'],
    ['*/*;q=0.1, application/json', 'json'],
    ['text/html;q=0.5, text/plain;q=0.9', 'text'],
    ['application/json, text/html', 'json'],
    ['text/html, application/json', 'html'],
    ['text/html;q=0, */*', 'json'],
    ['image/png', 'html'],
    ['text/html;q=0, application/json;q=0, text/plain;q=0', 'html'],
  ])('Accept %j → %s', (accept, expected) => {
    expect(pick(accept)).toBe(expected);
  });

  it.each([
    ['garbage'],
    [';;;,,,'],
    ['text/'],
    ['/json'],
    ['*/json'],
    ['application/json;q=2'],
    ['application/json;q=abc'],
    ['application/json;q'],
    ['"<script>"/x'],
    ['\u0000\r\n'],
  ])('malformed Accept %j → html', (accept) => {
    expect(pick(accept)).toBe('html');
  });

  it('skips malformed ranges and keeps the valid ones', () => {
    expect(pick('garbage, text/plain')).toBe('text');
    expect(pick('application/json;q=7, text/plain;q=0.2')).toBe('text');
  });
});
