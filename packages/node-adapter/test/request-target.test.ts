import { describe, expect, it } from 'vitest';
import { parseRequestTarget } from '../src/index.js';

describe('parseRequestTarget', () => {
  it('splits origin-form into path and query, both still percent-encoded', () => {
    expect(parseRequestTarget('/a%20b/c?x=%2F&y')).toEqual({ path: '/a%20b/c', query: 'x=%2F&y' });
    expect(parseRequestTarget('/')).toEqual({ path: '/', query: '' });
    expect(parseRequestTarget('/?q')).toEqual({ path: '/', query: 'q' });
  });

  it('keeps a target starting with // as a path, never as a host', () => {
    expect(parseRequestTarget('//evil.example/x?y=1')).toEqual({ path: '//evil.example/x', query: 'y=1' });
  });

  it('takes only path and query from absolute-form, http and https only', () => {
    expect(parseRequestTarget('http://evil.example/x?y=1')).toEqual({ path: '/x', query: 'y=1' });
    expect(parseRequestTarget('HTTPS://evil.example')).toEqual({ path: '/', query: '' });
    expect(parseRequestTarget('http://evil.example?z')).toEqual({ path: '/', query: 'z' });
    expect(parseRequestTarget('ftp://evil.example/x')).toBeNull();
    expect(parseRequestTarget('http:///x')).toBeNull();
  });

  it('keeps dot-segments and drops a fragment', () => {
    expect(parseRequestTarget('/a/../b#frag')).toEqual({ path: '/a/../b', query: '' });
  });

  it('accepts the asterisk form and rejects what is no path', () => {
    expect(parseRequestTarget('*')).toEqual({ path: '*', query: '' });
    expect(parseRequestTarget('robots.txt')).toBeNull();
    expect(parseRequestTarget('')).toBeNull();
  });
});
