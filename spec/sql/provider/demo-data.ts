/**
 * A larger ODataDemo data set for the SQL provider's differential specs: the demo's own entities
 * plus generated ones with what ordering and paging must get right: duplicate names, prices and
 * dates (ties), null descriptions and dates, products without category or supplier (nulls in
 * navigation paths), a category without products, timestamps with milliseconds.
 */
import type { MemoryData } from '../../../lib/provider/entity-data';
import { demoData } from '../../helpers/demo';
import { seededRandom } from '../../helpers/random';

const NAMES = [
  'Bread',
  'Milk',
  'Vint soda',
  "O'Brien's Ale",
  '50% Off',
  'a_b',
  'Crème brûlée',
  'Zebra',
  'apple',
  'Apple',
  'Tea (green)',
  'Ünïcode',
  '😀 Smile',
];
const CITIES = ['Redmond', 'Sammamish', 'Walldorf', "Coeur d'Alene", 'Zürich', null];

/** The demo data with `products` more products, 8 more categories and 10 more suppliers. */
export function largerDemoData(products = 240): MemoryData {
  const base = demoData();
  const next = seededRandom(14);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const categories = [...base.Categories, ...Array.from({ length: 8 }, (_, i) => ({ ID: 3 + i, Name: i === 7 ? null : pick(NAMES) }))];
  const suppliers = [
    ...base.Suppliers,
    ...Array.from({ length: 10 }, (_, i) => ({
      ID: 2 + i,
      Name: pick(NAMES),
      Address: { Street: `${i} Main St`, City: pick(CITIES), State: i % 3 === 0 ? null : 'WA', ZipCode: String(98000 + i), Country: 'USA' },
      Concurrency: i % 4,
    })),
  ];
  const generated = Array.from({ length: products }, (_, i) => {
    const day = Date.UTC(1995 + Math.floor(next() * 20), Math.floor(next() * 12), 1 + Math.floor(next() * 28)) + (i % 5 === 0 ? 123 : 0);
    return {
      ID: 9 + i,
      Name: pick(NAMES),
      Description: i % 4 === 0 ? null : `Description ${i % 17}`,
      ReleaseDate: new Date(day).toISOString(),
      DiscontinuedDate: i % 3 === 0 ? new Date(day + 86_400_000 * (i % 7)).toISOString() : null,
      Rating: Math.floor(next() * 6),
      Price: pick(['2.5', '3.5', '20.9', '19.9', '22.99', '0.1', '1088.8', '100', '7']),
      // Category 10 keeps no products; some products have no category or supplier.
      CategoryID: i % 11 === 0 ? null : Math.floor(next() * 10),
      SupplierID: i % 13 === 0 ? null : Math.floor(next() * 12),
    };
  });
  return { Categories: categories, Suppliers: suppliers, Products: [...base.Products, ...generated] };
}
