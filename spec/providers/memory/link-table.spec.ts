import { createLinkTables } from '../../../lib/providers/memory/link-table';
import type { LinkTable } from '../../../lib/providers/memory/link-table';
import { demoModel } from './models';

/** The Products-Categories link table of the demo model (end 0: Products, end 1: Categories). */
function productsCategories(): LinkTable {
  const model = demoModel();
  const table = [...createLinkTables(model).tables.values()].find((candidate) => candidate.associationSet.name === 'Products_Category_Categories');
  if (table === undefined) throw new Error('the demo model has Products_Category_Categories');
  return table;
}

/** Everything a ReadonlySet offers, read from a view. */
function readAll(view: ReadonlySet<string>): unknown {
  const visited: string[] = [];
  view.forEach((value, key, set) => visited.push(`${value}=${key}:${set === view}`));
  return { size: view.size, spread: [...view], keys: [...view.keys()], values: [...view.values()], entries: [...view.entries()], visited };
}

describe('LinkTable partners: one key stored bare, a Set from the second', () => {
  it('answers a single partner as a read-only set', () => {
    const table = productsCategories();
    expect(table.add(0, 'p1', 'c1')).toBe(true);
    expect(table.add(0, 'p1', 'c1')).toBe(false);
    expect(readAll(table.targets(0, 'p1'))).toEqual({
      size: 1,
      spread: ['c1'],
      keys: ['c1'],
      values: ['c1'],
      entries: [['c1', 'c1']],
      visited: ['c1=c1:true'],
    });
    expect(table.targets(0, 'p1').has('c1')).toBe(true);
    expect(table.targets(0, 'p1').has('c2')).toBe(false);
    expect(table.partnerCount(0, 'p1')).toBe(1);
    expect(table.partnerCount(0, 'nobody')).toBe(0);
    expect(table.size).toBe(1);
  });

  it('keeps link order through growing to a Set and shrinking back, and forgets a key with no partner', () => {
    const table = productsCategories();
    for (const product of ['p1', 'p2', 'p3']) table.add(1, 'c1', product);
    expect([...table.targets(1, 'c1')]).toEqual(['p1', 'p2', 'p3']);
    expect(table.partnerCount(1, 'c1')).toBe(3);
    expect(table.remove(1, 'c1', 'p1')).toBe(true);
    expect(table.remove(1, 'c1', 'p1')).toBe(false);
    expect(table.remove(0, 'p2', 'c1')).toBe(true);
    expect(readAll(table.targets(1, 'c1'))).toEqual({
      size: 1,
      spread: ['p3'],
      keys: ['p3'],
      values: ['p3'],
      entries: [['p3', 'p3']],
      visited: ['p3=p3:true'],
    });
    table.add(1, 'c1', 'p4');
    expect([...table.targets(1, 'c1')]).toEqual(['p3', 'p4']);
    expect(table.has(0, 'p4', 'c1')).toBe(true);
    table.remove(1, 'c1', 'p3');
    table.remove(1, 'c1', 'p4');
    expect(table.targets(1, 'c1').size).toBe(0);
    expect(table.targets(0, 'p4').size).toBe(0);
    expect(table.size).toBe(0);
  });
});
