/** The verbose JSON service document (MS-ODATA §2.2.6.3.12): `{"d":{"EntitySets":[...]}}`, built once per model. */
import type { EdmModel } from '../../edm/model';

const documents = new WeakMap<EdmModel, string>();

/** The entity sets of the default container, by name. */
export function writeJsonServiceDocument(model: EdmModel): string {
  let document = documents.get(model);
  if (document === undefined) {
    document = `{"d":{"EntitySets":${JSON.stringify(model.defaultContainer.entitySets.map((set) => set.name))}}}`;
    documents.set(model, document);
  }
  return document;
}
