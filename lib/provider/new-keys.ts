/**
 * The keys of a new entry that the client left out: which ones the store generates and how, the
 * same on every provider. A Guid key property gets a random UUID; a single integer key (Byte,
 * SByte, Int16, Int32, Int64) the store's next number (MemoryProvider: the largest key plus one; a
 * database: its identity or rowid); any other key the client must give (400).
 */
import { randomUUID } from 'crypto';
import type { EdmEntityType, EdmProperty } from '../edm/model';
import { laneOf } from '../edm/primitives';
import { ODataError } from '../errors';

/** How a missing key property is made: a random UUID, or the store's next number for a single integer key. */
export type KeyGeneration = 'uuid' | 'next';

/** A key property a new entry lacks, and how the store makes it. */
export interface GeneratedKey {
  /** The key property. */
  readonly property: EdmProperty;
  /** `uuid`: the provider puts a random UUID in (`withUuidKeys` does); `next`: the store numbers it. */
  readonly generation: KeyGeneration;
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/**
 * The key properties of `entityType` that `values` (a new entry's) lacks (undefined or null), each
 * with how it is generated. 400 BODY_INVALID naming the first one nothing generates: only a Guid
 * key property or a single integer key is; `hint` ends that message (how else the key may come).
 * `storeMade` names key properties the store always makes itself (an identity column a mapping
 * declares): they are never missing.
 */
export function generatedKeys(
  entityType: EdmEntityType,
  values: Readonly<Record<string, unknown>>,
  hint = '',
  storeMade: ReadonlySet<string> = new Set(),
): GeneratedKey[] {
  const generated: GeneratedKey[] = [];
  for (const property of entityType.key) {
    if (!isAbsent(values[property.name]) || storeMade.has(property.name)) continue;
    const lane = property.type.kind === 'Primitive' ? laneOf(property.type.name) : undefined;
    if (lane === 'guid') generated.push({ property, generation: 'uuid' });
    else if (entityType.key.length === 1 && (lane === 'integer' || lane === 'int64')) generated.push({ property, generation: 'next' });
    else
      throw ODataError.fromCode('BODY_INVALID', {
        detail: `the key property '${property.name}' of ${entityType.qualifiedName} is missing; only a single integer key or a Guid key is generated${hint}.`,
      });
  }
  return generated;
}

/** `values` with a random UUID for every `uuid` key of `generated` (the same object when there is none). */
export function withUuidKeys<V>(values: Readonly<Record<string, V | string>>, generated: readonly GeneratedKey[]): Readonly<Record<string, V | string>> {
  if (!generated.some((key) => key.generation === 'uuid')) return values;
  const out: Record<string, V | string> = { ...values };
  for (const { property, generation } of generated) if (generation === 'uuid') out[property.name] = randomUUID();
  return out;
}
