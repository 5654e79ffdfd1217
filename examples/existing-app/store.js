'use strict';
/**
 * The app's own storage: plain arrays in a Map, knowing nothing about OData. The app's own routes
 * and the OData provider both use it. Every method is synchronous, so a check and the write that
 * depends on it happen in one step, with no other request in between (Node runs one callback at a
 * time). A real app would have a database here; see docs/provider-tutorial.md.
 */

/**
 * Seed data. Total and Amount are Edm.Decimal: exact decimal strings, in the canonical form the
 * request readers produce (`"18"` for `18.00`, `"23.25"`), so stored values look alike.
 */
const SEED = {
  Customers: [
    { ID: 1, Name: 'Alfreds Futterkiste', City: 'Berlin' },
    { ID: 2, Name: 'Ana Trujillo Emparedados', City: 'México D.F.' },
    { ID: 3, Name: 'Around the Horn', City: 'London' },
  ],
  Orders: [
    { ID: 1, CustomerID: 1, Item: 'Chai', Quantity: 10, Total: '180', Status: 'shipped', Version: 1 },
    { ID: 2, CustomerID: 1, Item: 'Chang', Quantity: 5, Total: '95', Status: 'open', Version: 1 },
    { ID: 3, CustomerID: 2, Item: 'Aniseed Syrup', Quantity: 12, Total: '120', Status: 'open', Version: 1 },
    { ID: 4, CustomerID: 3, Item: 'Ikura', Quantity: 2, Total: '62', Status: 'shipped', Version: 3 },
  ],
  Invoices: [
    // Revision is the store's own row version: not in the model, but the provider's ETag for invoices.
    { ID: 1, CustomerID: 1, Amount: '180', Paid: true, Revision: 1 },
    { ID: 2, CustomerID: 3, Amount: '62', Paid: false, Revision: 1 },
  ],
};

class Store {
  /** `seed` defaults to the sample data above; rows are copied, never shared with the caller. */
  constructor(seed = SEED) {
    this.tables = new Map();
    for (const [name, rows] of Object.entries(seed))
      this.tables.set(
        name,
        rows.map((row) => ({ ...row })),
      );
  }

  /** Every row of a table. Rows are replaced on write, never changed in place, so callers may keep them. */
  all(table) {
    return this.rows(table);
  }

  /** The row with this ID, or undefined. */
  get(table, id) {
    return this.rows(table).find((row) => row.ID === id);
  }

  /** Add a row; an ID is generated when the row has none. Returns the stored row. */
  insert(table, row) {
    const rows = this.rows(table);
    const id = row.ID ?? rows.reduce((max, r) => Math.max(max, r.ID), 0) + 1;
    if (rows.some((r) => r.ID === id)) throw new DuplicateKeyError(table, id);
    const stored = Object.freeze({ ...row, ID: id });
    rows.push(stored);
    return stored;
  }

  /** Replace the row with `row.ID`. Returns the stored row. */
  replace(table, row) {
    const rows = this.rows(table);
    const index = rows.findIndex((r) => r.ID === row.ID);
    if (index < 0) throw new Error(`${table}(${row.ID}) does not exist`);
    const stored = Object.freeze({ ...row });
    rows[index] = stored;
    return stored;
  }

  /** Remove the row with this ID; returns the removed row (or undefined). */
  remove(table, id) {
    const rows = this.rows(table);
    const index = rows.findIndex((r) => r.ID === id);
    return index < 0 ? undefined : rows.splice(index, 1)[0];
  }

  rows(table) {
    const rows = this.tables.get(table);
    if (rows === undefined) throw new Error(`no table ${table}`);
    return rows;
  }
}

/** Thrown by insert when the ID is taken (the provider turns it into a 409). */
class DuplicateKeyError extends Error {
  constructor(table, id) {
    super(`${table}(${id}) already exists`);
    this.table = table;
    this.id = id;
  }
}

module.exports = { Store, DuplicateKeyError };
