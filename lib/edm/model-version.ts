/**
 * Which `DataServiceVersion` a model's metadata needs. OData 2.0 added, on the metadata side, only
 * customizable feeds (MS-ODATA §2.2.3.7.2.1: "Customizable feed property mappings are defined in the
 * OData 2.0 and OData 3.0 protocols"); everything else an OData 2.0 model can say existed in 1.0
 * (HasStream, MimeType, service operations and their HttpMethod, inheritance, open types).
 * @internal
 */
import type { Annotated, ModelDefinition } from './definition';
import { METADATA_NAMESPACE } from './namespaces';

/** True when an element carries `m:FC_*` attributes that the definition keeps as annotations (entity-type level or numbered mappings). */
function hasFeedCustomizationAnnotation(element: Annotated): boolean {
  return (element.annotationAttributes ?? []).some((a) => a.namespace === METADATA_NAMESPACE && a.name.startsWith('FC_'));
}

/** `2.0` when the model declares it or maps properties to feed elements (`m:FC_*`); `1.0` otherwise. */
export function modelDataServiceVersion(definition: ModelDefinition): '1.0' | '2.0' {
  if (definition.dataServiceVersion === '2.0') return '2.0';
  for (const schema of definition.schemas) {
    for (const type of [...(schema.entityTypes ?? []), ...(schema.complexTypes ?? [])]) {
      if (hasFeedCustomizationAnnotation(type)) return '2.0';
      for (const property of type.properties ?? []) {
        if (property.feedCustomization !== undefined || hasFeedCustomizationAnnotation(property)) return '2.0';
      }
    }
  }
  return '1.0';
}
