/** A DataProvider written by a user, MemoryProvider's options, and the query helpers a provider calls. */
import {
  applyQuery,
  defineModel,
  entityPosition,
  isKeyedPath,
  isPreciseInstant,
  MemoryProvider,
  ODataError,
  odata,
  preciseInstant,
  type CallNode,
  type CreateRequest,
  type DataProvider,
  type EdmEntitySet,
  type EntityKey,
  type EntityPath,
  type NavigationStep,
  type ExprNode,
  type FunctionName,
  type Entity,
  type MemoryProviderOptions,
  type MemoryStore,
  type PositionValue,
  type PreciseInstant,
  type QueryRequest,
  type QueryResult,
  type RequestContext,
  type SkipTokenPosition,
} from 'express-odata-v2';
import { expectType } from './expect.types';

const model = defineModel({ namespace: 'A', entityTypes: [{ name: 'P', key: ['ID'], properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }] }] });
const rows: Entity[] = [{ ID: 1 }];

// A read-only provider over an array: the one required method.
const readOnly: DataProvider = {
  async query(request, context) {
    expectType<QueryRequest>()(request);
    expectType<RequestContext>()(context);
    return applyQuery(rows, request);
  },
};

// A class with the optional write methods; async iterables stream a large feed.
class ArrayProvider implements DataProvider {
  query(request: QueryRequest): Promise<QueryResult> {
    async function* stream(): AsyncIterable<Entity> {
      yield* rows;
    }
    return Promise.resolve({ entities: request.top === 1 ? rows.slice(0, 1) : stream() });
  }
  count(): Promise<number> {
    return Promise.resolve(rows.length);
  }
  create(request: CreateRequest): Promise<Entity> {
    if (request.values.ID === undefined) throw new ODataError(400, 'BAD_REQUEST', 'ID is required', { target: 'ID' });
    rows.push({ ...request.values });
    return Promise.resolve(request.values);
  }
  delete(): Promise<void> {
    return Promise.resolve();
  }
}
odata({ model, provider: readOnly });
odata({ model, provider: new ArrayProvider() });

// Positions: where each returned entity stands, a timestamp finer than milliseconds as a PreciseInstant.
const positioned: DataProvider = {
  async query(request) {
    const result = applyQuery(rows, request);
    const positionOf = (entity: Entity): SkipTokenPosition => {
      const position = entityPosition(request.orderBy, entity, request.entityType);
      return { ...position, orderByValues: [preciseInstant(new Date(0), '456'), ...position.orderByValues.slice(1)] };
    };
    return { ...result, positionOf };
  },
};
odata({ model, provider: positioned });
const order: PositionValue | null = rows.length > 0 ? preciseInstant(new Date(0), '1') : null;
if (isPreciseInstant(order)) expectType<PreciseInstant>()(order);
expectType<string>()(preciseInstant(new Date(0), '456').subMilliseconds);
const noPositions: QueryResult = { entities: rows, positionOf: undefined };
const badPositions: QueryResult = {
  entities: rows,
  // @ts-expect-error: a position holds order values and a key, not the entity
  positionOf: (entity: Entity) => entity,
};
// @ts-expect-error: a precise instant is built from a Date and the digits after its millisecond, not from text
preciseInstant('2024-05-01T10:00:00.123456');

const bad: DataProvider = {
  // @ts-expect-error: query returns a Promise of a QueryResult, not an array
  query: () => rows,
};
const badCount: DataProvider = {
  query: () => Promise.resolve({ entities: rows }),
  // @ts-expect-error: count resolves to a number
  count: () => Promise.resolve('1'),
};
class WrongCreate implements DataProvider {
  query(): Promise<QueryResult> {
    return Promise.resolve({ entities: [] });
  }
  // @ts-expect-error: create takes a CreateRequest, not a bare entity
  create(entity: number): Promise<Entity> {
    return Promise.resolve({ ID: entity });
  }
}
// @ts-expect-error: a provider needs query
odata({ model, provider: {} });

// MemoryProvider: data per entity set, options, and the store users reach.
const options: MemoryProviderOptions = { now: () => new Date(0), streamAbove: 1000, transactionTimeout: 5000, operations: {} };
const memory = new MemoryProvider(model, { P: [{ ID: 1 }] }, options);
expectType<MemoryStore>()(memory.store);
new MemoryProvider(model);
// @ts-expect-error: data is keyed by entity set, each a list of records
new MemoryProvider(model, { P: { ID: 1 } });
// @ts-expect-error: unknown option
new MemoryProvider(model, {}, { latency: 10 });
// @ts-expect-error: the store is read-only
memory.store = new MemoryProvider(model).store;

// A translator reads a call's name as one of the built-in functions, and a name outside them is no function name.
function translateCall(node: ExprNode): string | undefined {
  if (node.kind !== 'Call') return undefined;
  expectType<FunctionName>()(node.name);
  // @ts-expect-error: `contains` is an OData 4 function; no OData 2.0 call has that name
  if (node.name === 'contains') return 'never';
  return node.name === 'substringof' ? 'strpos(...) > 0' : undefined;
}
// @ts-expect-error: a call names a built-in function (case-sensitive)
const misnamed: CallNode = { kind: 'Call', name: 'SubstringOf', args: [] };

// Navigation starts from one entity: only a path whose root has a key carries hops.
declare const products: EdmEntitySet;
declare const hop: NavigationStep;
const keyedPath: EntityPath = { root: { entitySet: products, key: { ID: 1 } }, navigation: [hop] };
// @ts-expect-error: a whole set's path has no navigation hops (give the root a key)
const keylessPath: EntityPath = { root: { entitySet: products, key: undefined }, navigation: [hop] };
function rootKeyOf(path: EntityPath): EntityKey | undefined {
  if (!isKeyedPath(path)) {
    expectType<readonly []>()(path.navigation);
    return undefined;
  }
  expectType<EntityKey>()(path.root.key);
  return path.root.key;
}

void bad;
void badCount;
void keyedPath;
void keylessPath;
void rootKeyOf;
void translateCall;
void misnamed;
void noPositions;
void badPositions;
void WrongCreate;
