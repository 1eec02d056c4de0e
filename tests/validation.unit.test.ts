import { describe, expect, it } from 'vitest';
import { inspectJson, maxJsonDepth } from '../shared/validation';

/** `levels` containers nested in one another (objects and arrays alternating). */
const nestedValue = (levels: number): unknown => {
  let value: unknown = 1;
  for (let level = levels; level > 0; level -= 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
};

describe('inspectJson', () => {
  it(`accepts ${maxJsonDepth} levels and refuses one more, naming where`, () => {
    expect(inspectJson(nestedValue(maxJsonDepth)).tooDeepAt).toBeUndefined();
    expect(inspectJson(nestedValue(maxJsonDepth + 1)).tooDeepAt).toMatch(/^a\.0\.a\.0/);
  });

  it('walks 100,000 levels without recursion, in linear time', () => {
    expect(inspectJson(nestedValue(100_000)).tooDeepAt).toBeDefined();
    expect(inspectJson(nestedValue(100_000), Infinity)).toEqual({ prototypeKeys: [] });
  });

  it('finds prototype-named keys at any depth, in document order', () => {
    const value = JSON.parse('{"a":{"b":[{"constructor":1}]},"__proto__":{"toString":2},"c":3}') as unknown;
    expect(inspectJson(value).prototypeKeys).toEqual(['a.b.0.constructor', '__proto__', '__proto__.toString']);
  });
});
