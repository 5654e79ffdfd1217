/**
 * Shared fixtures of the writer specs: the ODataDemo model and data (loaded from the captured
 * `$metadata` and data.json), a stable WriterContext, $select/$expand builders and the golden-file
 * comparison (`UPDATE_GOLDEN=1` rewrites the files; reviewers read the diff).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { loadEdmx } from '../../lib/edm';
import type { EdmEntitySet, EdmEntityType, EdmModel } from '../../lib/edm/model';
import type { WriterContext } from '../../lib/format';
import type { Entity } from '../../lib/provider/types';
import type { ExpandItem, SelectExpand, Selection } from '../../lib/uri/types';

const FIXTURES = resolve(__dirname, '..', 'fixtures', 'odata-demo');
const GOLDEN = resolve(__dirname, '..', 'golden');

export const SERVICE_ROOT = 'http://localhost/odata/';
export const UPDATED = '2013-01-19T16:02:44Z';

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

export const demoModel: EdmModel = loadEdmx(fixture('metadata.xml'));

export function entitySet(name: string, model: EdmModel = demoModel): EdmEntitySet {
  const set = model.entitySets.get(name);
  if (set === undefined) throw new Error(`no entity set ${name}`);
  return set;
}

/** The ETag rule of the original service: the Fixed properties' values, weak. */
function etagOf(entity: Entity, type: EdmEntityType): string | undefined {
  if (type.concurrencyProperties.length === 0) return undefined;
  return `W/"${type.concurrencyProperties.map((p) => String(entity[p.name])).join(',')}"`;
}

export function context(version: '1.0' | '2.0' = '2.0', model: EdmModel = demoModel, extra: Partial<WriterContext> = {}): WriterContext {
  return { serviceRoot: SERVICE_ROOT, model, version, now: () => new Date(UPDATED), etagOf, ...extra };
}

interface RawDemo {
  readonly Categories: Record<string, unknown>[];
  readonly Products: Record<string, unknown>[];
  readonly Suppliers: Record<string, unknown>[];
}

const raw = JSON.parse(fixture('data.json')) as RawDemo;

function toEntity(record: Record<string, unknown>): Entity {
  const entity: Entity = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'ReleaseDate' || key === 'DiscontinuedDate') entity[key] = typeof value === 'string' ? new Date(value) : null;
    else entity[key] = value as Entity[string];
  }
  return entity;
}

/** The demo data as providers return it (Products keep their CategoryID/SupplierID link fields). */
export const demo = {
  Categories: raw.Categories.map(toEntity),
  Products: raw.Products.map(toEntity),
  Suppliers: raw.Suppliers.map(toEntity),
};

export function byId(set: readonly Entity[], id: unknown): Entity | null {
  return set.find((e) => e.ID === id) ?? null;
}

/** A product with Category (and/or Supplier) filled in, as a provider answers `$expand`. */
export function productWith(product: Entity, navigation: readonly ('Category' | 'Supplier')[]): Entity {
  const copy: Entity = { ...product };
  if (navigation.includes('Category')) copy.Category = byId(demo.Categories, product.CategoryID);
  if (navigation.includes('Supplier')) copy.Supplier = byId(demo.Suppliers, product.SupplierID);
  return copy;
}

export const ALL: SelectExpand = { select: undefined, expand: [] };

export function selection(properties: readonly string[], navigationProperties: readonly string[] = [], allProperties = false): Selection {
  return { allProperties, properties: new Set(properties), navigationProperties: new Set(navigationProperties) };
}

/** `$expand` of one navigation property of `set`'s type, with what is selected/expanded below it. */
export function expandItem(set: EdmEntitySet, name: string, below: SelectExpand = ALL): ExpandItem {
  const property = set.entityType.navigationPropertiesByName.get(name);
  if (property === undefined) throw new Error(`no navigation ${name}`);
  const target = set.container.entitySets.find((s) => s.entityType === property.target);
  if (target === undefined) throw new Error(`no set for ${name}`);
  return { property, entitySet: target, select: below.select, expand: below.expand };
}

/** Compare with spec/golden/<path>; `UPDATE_GOLDEN=1` writes the file instead. */
export function expectGolden(path: string, actual: string): void {
  const file = join(GOLDEN, path);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`golden file ${path} is missing: run with UPDATE_GOLDEN=1 and review it`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

/** Narrow a writer's output to a string (arrays never stream). */
export function text(output: string | AsyncIterable<string>): string {
  if (typeof output !== 'string') throw new Error('expected a string, got a stream');
  return output;
}
