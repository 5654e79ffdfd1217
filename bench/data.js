'use strict';
/**
 * The benchmark data set: the ODataDemo model scaled deterministically to 1,000 Products,
 * 50 Categories and 100 Suppliers. The same seed always gives the same data, so runs compare.
 * Products carry their links as foreign-key fields (CategoryID, SupplierID), as the demo's
 * data.json does; MemoryProvider turns them into links with the `links` option.
 */
const fs = require('fs');
const path = require('path');

const DEMO = path.join(__dirname, '..', 'examples', 'odata-demo');
const METADATA_PATH = path.join(DEMO, 'metadata.xml');

const COUNTS = Object.freeze({ Products: 1000, Categories: 50, Suppliers: 100 });

/** mulberry32: a tiny seeded PRNG, good enough to spread values deterministically. */
function prng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The demo data scaled up; `counts` may be overridden (the streaming check uses bigger sets). */
function buildData(counts = COUNTS, seed = 20260207) {
  const demo = JSON.parse(fs.readFileSync(path.join(DEMO, 'data.json'), 'utf8'));
  const random = prng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const Categories = [];
  for (let id = 0; id < counts.Categories; id++) {
    Categories.push({ ID: id, Name: `${demo.Categories[id % demo.Categories.length].Name} ${id}` });
  }
  const Suppliers = [];
  for (let id = 0; id < counts.Suppliers; id++) {
    const base = demo.Suppliers[id % demo.Suppliers.length];
    Suppliers.push({
      ID: id,
      Name: `${base.Name} ${id}`,
      Address: { ...base.Address, Street: `${100 + id} ${base.Address.Street}` },
      Concurrency: 0,
    });
  }
  const Products = [];
  const day = 86400000;
  const start = Date.UTC(1990, 0, 1);
  for (let id = 0; id < counts.Products; id++) {
    const base = pick(demo.Products);
    const released = start + Math.floor(random() * 12000) * day;
    const discontinued = random() < 0.2 ? new Date(released + Math.floor(random() * 2000) * day).toISOString().replace('.000Z', 'Z') : null;
    // Prices with at most two decimals, 1.00 .. 100.99; Decimal values travel as strings.
    const cents = 100 + Math.floor(random() * 10000);
    Products.push({
      ID: id,
      Name: `${base.Name} ${id}`,
      Description: base.Description,
      ReleaseDate: new Date(released).toISOString().replace('.000Z', 'Z'),
      DiscontinuedDate: discontinued,
      Rating: Math.floor(random() * 6),
      Price: decimalText(cents),
      CategoryID: Math.floor(random() * counts.Categories),
      SupplierID: Math.floor(random() * counts.Suppliers),
    });
  }
  return { Categories, Products, Suppliers };
}

/** Canonical Edm.Decimal text of an amount in cents: no trailing zeros ("12.5", "7"). */
function decimalText(cents) {
  const whole = Math.floor(cents / 100);
  const fraction = cents % 100;
  if (fraction === 0) return String(whole);
  return fraction % 10 === 0 ? `${whole}.${fraction / 10}` : `${whole}.${String(fraction).padStart(2, '0')}`;
}

/** The model's EDMX text (the demo's real $metadata). */
function readMetadata() {
  return fs.readFileSync(METADATA_PATH, 'utf8');
}

module.exports = { COUNTS, buildData, readMetadata, decimalText, prng };
