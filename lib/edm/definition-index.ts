/**
 * Name lookups over a `ModelDefinition`, shared by the validator and the builder: qualified and
 * alias-qualified names (CSDL §2.1 "Alias"), and `Collection(...)` type references.
 * @internal
 */
import { didYouMean } from '../util';
import type {
  AssociationDefinition,
  ComplexTypeDefinition,
  EntityContainerDefinition,
  EntityTypeDefinition,
  ModelDefinition,
  SchemaDefinition,
} from './definition';

/** A schema element with the schema it lives in and its namespace-qualified name. */
export interface Indexed<T> {
  readonly schema: SchemaDefinition;
  readonly definition: T;
  /** `Namespace.Name`, never the alias form. */
  readonly qualifiedName: string;
}

/** `Collection(X)` or `X`, split. */
export interface TypeReference {
  readonly collection: boolean;
  readonly name: string;
}

const COLLECTION_PREFIX = 'Collection(';

/** CSDL SimpleIdentifier (a letter first, then letters, digits, marks, connectors); a leading `_` is tolerated. */
const SIMPLE_IDENTIFIER = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Cf}]*$/u;
/** CSDL namespace: simple identifiers joined by dots. */
const NAMESPACE_NAME = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Cf}]*(\.[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Cf}]*)*$/u;

/** `. Did you mean 'X'?` for a misspelled name, or an empty string. */
export function suggestion(name: string, candidates: Iterable<string>): string {
  const hint = didYouMean(name, candidates);
  return hint === '' ? '' : `.${hint}`;
}

/** True for a CSDL SimpleIdentifier. */
export function isSimpleIdentifier(name: unknown): boolean {
  return typeof name === 'string' && SIMPLE_IDENTIFIER.test(name);
}

/** True for a CSDL namespace name (`ODataDemo`, `com.example.Sales`). */
export function isNamespaceName(name: unknown): boolean {
  return typeof name === 'string' && NAMESPACE_NAME.test(name);
}

/** typeRef = "Collection(" qualifiedName ")" / qualifiedName  (CSDL FunctionImport ReturnType) */
export function parseTypeReference(text: string): TypeReference {
  if (text.startsWith(COLLECTION_PREFIX) && text.endsWith(')')) {
    return { collection: true, name: text.slice(COLLECTION_PREFIX.length, -1).trim() };
  }
  return { collection: false, name: text };
}

/** Split `A.B.Name` at its last dot: namespace `A.B`, name `Name`; undefined without a dot. */
function splitQualifiedName(name: string): { namespace: string; name: string } | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return undefined;
  return { namespace: name.slice(0, dot), name: name.slice(dot + 1) };
}

/** Lookups by qualified or alias-qualified name; the first definition wins when names repeat. */
export class DefinitionIndex {
  readonly entityTypes = new Map<string, Indexed<EntityTypeDefinition>>();
  readonly complexTypes = new Map<string, Indexed<ComplexTypeDefinition>>();
  readonly associations = new Map<string, Indexed<AssociationDefinition>>();
  readonly containers: Indexed<EntityContainerDefinition>[] = [];
  /** Namespace or alias to namespace. */
  private readonly prefixes = new Map<string, string>();

  constructor(readonly definition: ModelDefinition) {
    for (const schema of definition.schemas) {
      if (!this.prefixes.has(schema.namespace)) this.prefixes.set(schema.namespace, schema.namespace);
      if (schema.alias !== undefined && !this.prefixes.has(schema.alias)) this.prefixes.set(schema.alias, schema.namespace);
      const add = <T extends { readonly name: string }>(map: Map<string, Indexed<T>>, items: readonly T[] | undefined): void => {
        for (const item of items ?? []) {
          const qualifiedName = `${schema.namespace}.${item.name}`;
          if (!map.has(qualifiedName)) map.set(qualifiedName, { schema, definition: item, qualifiedName });
        }
      };
      add(this.entityTypes, schema.entityTypes);
      add(this.complexTypes, schema.complexTypes);
      add(this.associations, schema.associations);
      for (const container of schema.entityContainers ?? []) {
        this.containers.push({ schema, definition: container, qualifiedName: `${schema.namespace}.${container.name}` });
      }
    }
  }

  /** The namespace-qualified form of a qualified or alias-qualified name; undefined for an unknown prefix. */
  qualify(name: string): string | undefined {
    const parts = splitQualifiedName(name);
    if (parts === undefined) return undefined;
    const namespace = this.prefixes.get(parts.namespace);
    return namespace === undefined ? undefined : `${namespace}.${parts.name}`;
  }

  entityType(name: string): Indexed<EntityTypeDefinition> | undefined {
    const qualified = this.qualify(name);
    return qualified === undefined ? undefined : this.entityTypes.get(qualified);
  }

  complexType(name: string): Indexed<ComplexTypeDefinition> | undefined {
    const qualified = this.qualify(name);
    return qualified === undefined ? undefined : this.complexTypes.get(qualified);
  }

  association(name: string): Indexed<AssociationDefinition> | undefined {
    const qualified = this.qualify(name);
    return qualified === undefined ? undefined : this.associations.get(qualified);
  }

  /** The base-type chain of an entity type, nearest first; stops at a cycle or an unknown name. */
  baseTypes(type: EntityTypeDefinition): Indexed<EntityTypeDefinition>[] {
    const chain: Indexed<EntityTypeDefinition>[] = [];
    const seen = new Set<EntityTypeDefinition>([type]);
    let current = type.baseType === undefined ? undefined : this.entityType(type.baseType);
    while (current !== undefined && !seen.has(current.definition)) {
      chain.push(current);
      seen.add(current.definition);
      current = current.definition.baseType === undefined ? undefined : this.entityType(current.definition.baseType);
    }
    return chain;
  }

  /** The container the service exposes: `m:IsDefaultEntityContainer`, else the only one. */
  defaultContainer(): Indexed<EntityContainerDefinition> | undefined {
    const marked = this.containers.filter((c) => c.definition.isDefaultEntityContainer === true);
    if (marked.length === 1) return marked[0];
    if (marked.length === 0 && this.containers.length === 1) return this.containers[0];
    return undefined;
  }
}
