import { describe, expect, it } from 'vitest';
import { Request, RequestStack } from '../src/index.js';

describe('RequestStack', () => {
  it('answers null for requests it does not hold, at every depth', () => {
    const stack = new RequestStack();
    const main = Request.fromUrl('http://localhost/');
    const sub = Request.fromUrl('http://localhost/_error');
    expect([stack.getMainRequest(), stack.getCurrentRequest(), stack.getParentRequest()]).toEqual([null, null, null]);

    stack.push(main);
    expect([stack.getMainRequest(), stack.getCurrentRequest(), stack.getParentRequest()]).toEqual([main, main, null]);

    stack.push(sub);
    expect([stack.getMainRequest(), stack.getCurrentRequest(), stack.getParentRequest()]).toEqual([main, sub, main]);
    expect(stack.size).toBe(2);

    expect(stack.pop()).toBe(sub);
    expect(stack.pop()).toBe(main);
    expect([stack.getMainRequest(), stack.getCurrentRequest(), stack.getParentRequest()]).toEqual([null, null, null]);
  });
});
