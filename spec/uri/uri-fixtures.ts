/** Shared fixtures of the URI specs: the two models, an error catcher and a ResourcePath summary. */
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx } from '../../lib/edm';
import type { EdmModel } from '../../lib/edm/model';
import type { ResourcePath } from '../../lib/uri/types';
export { catchODataError } from '../helpers/odata-error';

const FIXTURES = join(__dirname, '..', 'fixtures');

/** The ODataDemo model (Products, Categories, Suppliers). */
export const demoModel: EdmModel = loadEdmx(readFileSync(join(FIXTURES, 'odata-demo', 'metadata.xml'), 'utf8'));

/** The URI test model: composite keys, nested complex types, open and media types, all function import shapes. */
export const uriModel: EdmModel = loadEdmx(readFileSync(join(FIXTURES, 'uri-test.xml'), 'utf8'));

/** A plain, comparable picture of a ResourcePath: names instead of model objects, undefined fields dropped. */
export function summarize(path: ResourcePath): Record<string, unknown> {
  const summary: Record<string, unknown> = { kind: path.kind };
  if (path.kind === 'ServiceOperation') {
    summary.functionImport = path.functionImport.name;
    if (path.suffix !== undefined) summary.suffix = path.suffix;
    return summary;
  }
  if (!('path' in path)) return summary;
  summary.entitySet = path.entitySet.name;
  summary.entityType = path.entityType.qualifiedName;
  summary.root = path.path.root.entitySet.name;
  if (path.path.root.key !== undefined) summary.rootKey = path.path.root.key;
  if (path.path.navigation.length > 0) {
    summary.navigation = path.path.navigation.map((step) =>
      step.key === undefined ? `${step.property.name}->${step.entitySet.name}` : [`${step.property.name}->${step.entitySet.name}`, step.key],
    );
  }
  if ('properties' in path) {
    summary.properties = path.properties.map((step) => (step.kind === 'Property' ? step.property.name : `dynamic:${step.name}`));
  }
  if ('navigationProperty' in path) {
    summary.link = `${path.navigationProperty.name}->${path.targetEntitySet.name}`;
    if (path.targetKey !== undefined) summary.targetKey = path.targetKey;
  }
  return summary;
}
