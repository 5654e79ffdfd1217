/**
 * Shared by the real-schema specs on PGlite and on a server (spec/fixtures/sql/real-schema.sql):
 * the options they introspect with, the golden files of both naming styles, with the Fiori
 * annotations (the default) and without them (`-plain`), one set for both engines, and the walk
 * over every navigation property with `$expand`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { writeEdmx } from '../../../lib';
import type { EdmModel } from '../../../lib/edm/model';
import type { AnnotationStyle, IntrospectOptions, IntrospectionResult, NamingStyle } from '../../../lib/sql';
import type { RunningServer } from '../../helpers/server';
import { getJson } from './support';

const GOLDEN = join(__dirname, '..', '..', 'golden', 'introspect');

/** The options of the golden files: the two views with the keys their warnings propose or a user gives. */
export function realSchemaOptions(names: NamingStyle, annotations?: AnnotationStyle): IntrospectOptions {
  return {
    namespace: 'Shop',
    names,
    keys: { active_products: ['product_id'], order_overview: ['order_id'] },
    ...(annotations === undefined ? {} : { annotations }),
  };
}

/** The warnings of the real schema without keys for its views (as `CODE target: message`). */
export const REAL_SCHEMA_WARNINGS = [
  "TABLE_WITHOUT_KEY public.active_products: The view public.active_products is left out: a view has no primary key. Give its key columns to include it: keys: { 'active_products': ['product_id'] }, or --key active_products=product_id on the command line (the primary key of its table public.products).",
  'TABLE_WITHOUT_KEY public.category_log: The table public.category_log is left out: it has no primary key, and no unique key on columns that are never null. To include it, name the columns that identify its rows in the keys option or with --key category_log=<columns> on the command line (which checks that no two rows share them).',
  'TABLE_WITHOUT_KEY public.order_overview: The view public.order_overview is left out: a view has no primary key, and none of its columns shows a unique key of its table. To include it, name the columns that identify its rows in the keys option or with --key order_overview=<columns> on the command line (which checks that no two rows share them).',
];

function expectGolden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
  }
  if (!existsSync(file)) throw new Error(`golden file ${name} is missing: run with UPDATE_GOLDEN=1 and review it`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

/** The result against spec/golden/introspect/real-schema-<style>[-plain].xml and -mapping.json (the same for both annotation styles). */
export function expectRealSchemaGolden(result: IntrospectionResult, names: NamingStyle, annotations: AnnotationStyle = 'fiori'): void {
  expectGolden(`real-schema-${names}${annotations === 'none' ? '-plain' : ''}.xml`, writeEdmx(result.model));
  expectGolden(`real-schema-${names}-mapping.json`, `${JSON.stringify(result.mapping, null, 2)}\n`);
}

/** Every navigation property of every entity set, as `Set/Navigation`. */
export function navigationPaths(model: EdmModel): string[] {
  return model.defaultContainer.entitySets.flatMap((set) => set.entityType.navigationProperties.map((navigation) => `${set.name}/${navigation.name}`));
}

/**
 * `Set?$expand=Navigation` for every navigation property: each answers 200, and the schema's rows
 * give each navigation at least one entry to expand. Resolves with the number of entries expanded
 * per path.
 */
export async function expandEveryNavigation(server: RunningServer, model: EdmModel): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const path of navigationPaths(model)) {
    const [set, navigation] = path.split('/');
    const { status, d } = await getJson(server, `${set}?$expand=${navigation}`);
    expect([path, status]).toEqual([path, 200]);
    const entries = (d as { results: Record<string, unknown>[] }).results;
    counts[path] = entries.reduce((sum, entry) => {
      const value = entry[navigation] as { results?: unknown[]; __metadata?: unknown } | null;
      return sum + (value === null ? 0 : Array.isArray(value.results) ? value.results.length : 1);
    }, 0);
  }
  return counts;
}
