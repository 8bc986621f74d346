import { keyBetween } from '../../server/src/modules/tasks/rank';

describe('fractional rank keys', () => {
  test('appending keeps keys short and ordered', () => {
    const keys: string[] = [];
    let last: string | null = null;
    for (let i = 0; i < 5000; i++) {
      last = keyBetween(last, null);
      keys.push(last);
    }
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(Math.max(...keys.map((k) => k.length))).toBe(6);
  });

  test('random inserts between neighbours stay strictly ordered and never end in 0', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const list: string[] = [keyBetween(null, null)];
    for (let i = 0; i < 3000; i++) {
      const at = Math.floor(random() * (list.length + 1));
      const key = keyBetween(at === 0 ? null : list[at - 1]!, at === list.length ? null : list[at]!);
      list.splice(at, 0, key);
    }
    for (let i = 1; i < list.length; i++) expect(list[i - 1]! < list[i]!).toBe(true);
    expect(list.some((k) => k.endsWith('0'))).toBe(false);
  });

  test('repeated inserts at the front and between two fixed keys converge without collisions', () => {
    let first = keyBetween(null, null);
    for (let i = 0; i < 500; i++) {
      const next = keyBetween(null, first);
      expect(next < first).toBe(true);
      first = next;
    }
    let low = keyBetween(null, null);
    const high = keyBetween(low, null);
    for (let i = 0; i < 200; i++) {
      const mid = keyBetween(low, high);
      expect(low < mid && mid < high).toBe(true);
      low = mid;
    }
  });

  test('out-of-order neighbours are refused', () => {
    expect(() => keyBetween('b', 'a')).toThrow(/out of order/);
  });
});

describe('ids', () => {
  test('resource ids are 22 url-safe characters and never start with "-" (CLI arguments)', () => {
    const { newId } = require('../../server/src/platform/ids') as typeof import('../../server/src/platform/ids');
    const ids = Array.from({ length: 20000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
