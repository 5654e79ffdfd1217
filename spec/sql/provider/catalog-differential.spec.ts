/**
 * SqlProvider against MemoryProvider over the Catalog model (catalog.ts): many-to-many through a
 * join table, a self-association, Int64, Guid and composite keys, ReferentialConstraints, nullable
 * and nested complex values, a microsecond-precision column, an open type whose dynamic properties
 * the translator leaves to the evaluator (filters, orders, counts and paging through the exact
 * fallback), and `mod` of doubles (the same). Same answers, same pages.
 */
import type { PGlite } from '@electric-sql/pglite';
import { pglite } from '../../../lib/sql/pglite';
import { openTestPGlite } from '../../helpers/pglite';
import { CATALOG, catalogData } from './catalog';
import { describeDifferential, type DifferentialCases } from './differential';

const ORDER = "guid'00000000-0000-4000-8000-000000000003'";

export const CATALOG_CASES: DifferentialCases = {
  reads: [
    'Products?$format=json',
    'Products?$format=json&$filter=Dimensions/Width gt 1',
    "Products?$format=json&$filter=Dimensions/Unit/Code eq 'cm'",
    'Products?$format=json&$filter=Dimensions eq null',
    'Products?$format=json&$filter=Dimensions/Unit/Code eq null',
    "Products?$format=json&$filter=Measured ge datetimeoffset'2021-01-01T00:00:05.5Z'",
    'Products?$format=json&$orderby=Dimensions/Width desc,Name',
    'Products?$format=json&$orderby=Weight,Measured desc',
    "Products?$format=json&$filter=Category/Parent/Name eq 'Category H'",
    'Products?$format=json&$orderby=Category/Parent/Name desc,Price',
    "Products(4)/Tags?$format=json",
    "Tags('red')/Products?$format=json&$orderby=Price desc",
    "Tags('red')/Products/$count",
    "Products(0)/Tags('red')?$format=json",
    "Products(1)/Tags('red')?$format=json",
    'Products?$format=json&$expand=Tags&$top=8',
    'Tags?$format=json&$expand=Products/Category&$select=Code,Products/Name,Products/Category/ID',
    'Categories?$format=json&$expand=Children,Parent',
    'Categories(2)/Parent/Children?$format=json',
    'Categories(3)/Children?$format=json',
    'Lines?$format=json&$orderby=Quantity desc',
    `Lines(OrderID=${ORDER},No=1)?$format=json`,
    `Orders(${ORDER})/Lines?$format=json`,
    `Lines?$format=json&$skiptoken=${ORDER},2`,
    'Orders?$format=json&$expand=Lines,Customer',
    'Orders?$format=json&$filter=Total gt 20M&$orderby=Placed desc,Total',
    'Orders?$format=json&$filter=CustomerID eq 9007199254740993L',
    'Customers(9007199254740991L)?$format=json',
    'Customers(9007199254740991L)/Orders?$format=json&$orderby=Total desc',
    'Customers?$format=json&$expand=Profile,Orders/Lines',
    'Profiles?$format=json&$expand=Customer',
    'Customers(9007199254740991L)/Profile?$format=json',
    'Notes?$format=json',
    "Notes?$format=json&$filter=Color eq 'red'",
    'Notes?$format=json&$orderby=Size desc',
    'Notes?$format=json&$filter=Size gt 2 and ID lt 10&$top=2&$inlinecount=allpages',
    'Notes?$format=json&$filter=Size ge 2&$orderby=Size,ID desc&$skip=2&$top=3',
    "Notes/$count?$filter=Color eq 'blue'",
    'Notes?$format=json&$select=ID,Color',
    'Products?$format=json&$filter=Weight mod 2 eq 0.5',
    'Products?$format=json&$filter=Weight mod 2 eq 0.5 and Price gt 2&$orderby=Name&$top=3&$inlinecount=allpages&$expand=Category',
    'Products/$count?$filter=Weight mod 2 eq 0.5',
    'Categories(1)/Products?$format=json&$filter=Weight mod 2 eq 0.5&$inlinecount=allpages',
    'Categories(99)/Products?$format=json&$filter=Weight mod 2 eq 0.5',
    'Photos?$format=json',
    'Photos(1)/$value',
  ],
  atom: ['Products?$top=4', 'Lines?$top=3', 'Photos'],
  walks: [
    'Products?$format=json&$orderby=Dimensions/Width desc',
    'Products?$format=json&$orderby=Measured',
    'Lines?$format=json',
    'Lines?$format=json&$orderby=Quantity',
    'Orders?$format=json&$orderby=Total desc&$expand=Lines',
    "Tags('red')/Products?$format=json&$orderby=Name",
    'Notes?$format=json&$orderby=Size',
    'Notes?$format=json&$filter=Size gt 1&$inlinecount=allpages',
    'Products?$format=json&$filter=Weight mod 2 eq 0.5&$orderby=Price desc',
  ],
};

let instance: PGlite;

beforeAll(async () => {
  instance = await openTestPGlite();
}, 60_000);
afterAll(() => instance.close());

// Streamed reads keep one snapshot here (PGlite's session held while a feed is written).
describeDifferential('Catalog, PGlite', async () => ({ db: pglite(instance), model: CATALOG, data: catalogData() }), CATALOG_CASES, { streamSnapshot: true });
