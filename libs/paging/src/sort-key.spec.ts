import { orderFromText, orderText, sortKeysOf } from './sort-key';

describe('sortKeysOf', () => {
  it('reads a leading - as descending and ends with the tie-breaker in the same direction', () => {
    expect(sortKeysOf('created_time')).toEqual([
      { field: 'created_time', direction: 1 },
      { field: '_id', direction: 1 },
    ]);
    expect(sortKeysOf('-updated_time')).toEqual([
      { field: 'updated_time', direction: -1 },
      { field: '_id', direction: -1 },
    ]);
    expect(sortKeysOf('-due', 'id')).toEqual([
      { field: 'due', direction: -1 },
      { field: 'id', direction: -1 },
    ]);
  });

  it('refuses an empty field and the tie-breaker itself', () => {
    expect(() => sortKeysOf('-')).toThrow('not a sort field');
    expect(() => sortKeysOf('_id')).toThrow('not a sort field');
  });
});

describe('orderText / orderFromText', () => {
  it('round-trips an ordering', () => {
    const keys = sortKeysOf('-created_time');
    expect(orderText(keys)).toBe('created_time:-1,_id:-1');
    expect(orderFromText(orderText(keys))).toEqual(keys);
  });

  it.each(['', 'created_time', 'created_time:2', 'a:1,', '$gt:1', 'a.b:1', 'a:1,b:-1:x'])('reads %j as no ordering', (text) => {
    expect(orderFromText(text)).toBeUndefined();
  });
});
