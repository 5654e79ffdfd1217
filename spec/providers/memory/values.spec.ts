import { cloneValue } from '../../../lib/providers/memory/values';

describe('cloneValue', () => {
  it('copies Dates, bytes and complex values deeply', () => {
    const date = new Date(0);
    const bytes = Buffer.from([1]);
    const complex = { Street: 'x', Inner: { When: date } };
    const copies = [cloneValue(date), cloneValue(bytes), cloneValue(complex)];
    expect(copies).toEqual([date, bytes, complex]);
    expect(copies[0]).not.toBe(date);
    expect(copies[1]).not.toBe(bytes);
    expect((copies[2] as { Inner: { When: Date } }).Inner.When).not.toBe(date);
  });
});
