import { describe, expect, it } from 'vitest';
import { Event, EventDispatcher } from '../src/index.js';

class Named extends Event {
  readonly calls: string[] = [];
}

type Map = { ping: Named };

function recorder(id: string) {
  const fn = (event: Named) => {
    event.calls.push(id);
  };
  Object.defineProperty(fn, 'name', { value: id });
  return fn;
}

describe('EventDispatcher', () => {
  it('runs higher priorities first and equal priorities in registration order', () => {
    const d = new EventDispatcher<Map>();
    d.on('ping', recorder('p0a'), 0).on('ping', recorder('m5'), -5).on('ping', recorder('p0b'), 0).on('ping', recorder('p5'), 5);
    const event = new Named();
    expect(d.dispatch('ping', event)).toBeUndefined();
    expect(event.calls).toEqual(['p5', 'p0a', 'p0b', 'm5']);
    expect(d.getListeners('ping').map((l) => [l.name, l.priority])).toEqual([
      ['p5', 5],
      ['p0a', 0],
      ['p0b', 0],
      ['m5', -5],
    ]);
  });
});
