/**
 * Key reads of one request context that arrive together become one statement per entity set and
 * `$select`: the ten `GET Products(n)` parts of a `$batch` (which the batch executor starts at
 * once) are read with one `where key = any($1)` instead of ten round trips. Each read still gets
 * exactly the answer it would get alone: a key the statement did not return, and every read of a
 * group whose statement failed, is read again on its own (the 404, or the mapped error, is that
 * read's own, and no other read of the group sees it).
 */
import { sql } from 'kysely';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../edm/primitives';
import type { RequestContext } from '../../protocol/message';
import { isKeyedPath } from '../../provider/not-found';
import type { QueryRequest, QueryResult } from '../../provider/types';
import type { Selection } from '../../uri/types';
import type { SetPlan } from '../mapping/compiled';
import type { AppliedSession } from '../session';
import type { DecodedRow } from './projection';
import type { ReadSettings } from './query';
import { ReadScope } from './scope';
import { ReadStatement } from './statement';
import { entityTuple, tupleKey } from './tuples';

/** One waiting key read. */
interface PendingRead {
  readonly request: QueryRequest;
  readonly tuple: PrimitiveValue[];
  readonly single: SingleRead;
  readonly resolve: (result: QueryResult) => void;
  readonly reject: (error: unknown) => void;
}

/** Reads of one set and one `$select` in one context, waiting for the end of the current turn. */
interface PendingGroup {
  readonly plan: SetPlan;
  /** The context's database session: a group never spans two contexts, so never two sessions. */
  readonly session: AppliedSession | undefined;
  readonly types: readonly EdmPrimitiveTypeName[];
  readonly reads: PendingRead[];
}

/** A read on its own, as the provider runs any read (its errors mapped, retried). */
export type SingleRead = (request: QueryRequest) => Promise<QueryResult>;

/** `$select` as a string: reads that select the same properties may share a statement. */
function selectionSignature(select: Selection | undefined): string {
  if (select === undefined) return '';
  return JSON.stringify([select.allProperties, [...select.properties].sort(), [...select.navigationProperties].sort()]);
}

/** The key columns' EDM types, when a key read can join a group (keys stored in their EDM type's own column). */
function keyTypes(plan: SetPlan): EdmPrimitiveTypeName[] | undefined {
  const types: EdmPrimitiveTypeName[] = [];
  for (const column of plan.key) {
    if (column.type === undefined || column.storedType !== undefined) return undefined;
    types.push(column.type);
  }
  return types;
}

/** True for `Set(key)` with at most `$select`: nothing but the key decides which row answers. */
export function isPlainKeyRead(request: QueryRequest): boolean {
  const { path } = request;
  return (
    request.single &&
    isKeyedPath(path) &&
    path.navigation.length === 0 &&
    request.filter === undefined &&
    request.search === undefined &&
    request.selectExpand.expand.length === 0 &&
    !request.count &&
    request.skipToken === undefined
  );
}

/** Collects the key reads of each request context during one turn of the event loop. */
export class KeyReadCoalescer {
  private readonly waiting = new WeakMap<RequestContext, Map<string, PendingGroup>>();

  constructor(private readonly settings: ReadSettings) {}

  /**
   * Answer a plain key read (`isPlainKeyRead`), together with the others of its context in this
   * turn, as `session` (the context's database session, the same for every read of the context).
   */
  read(request: QueryRequest, context: RequestContext, session: AppliedSession | undefined, single: SingleRead): Promise<QueryResult> {
    const plan = this.settings.compiled.sets.get(request.entitySet);
    const types = plan === undefined ? undefined : keyTypes(plan);
    const { path } = request;
    if (plan === undefined || types === undefined || !isKeyedPath(path)) return single(request);
    const key = path.root.key;
    let groups = this.waiting.get(context);
    if (groups === undefined) {
      groups = new Map();
      this.waiting.set(context, groups);
      const scheduled = groups;
      // After the current turn: every part the batch executor started is then waiting here.
      setImmediate(() => {
        this.waiting.delete(context);
        // A flush that fails in a way of its own fails its reads (settled ones ignore it); nothing is left unhandled.
        for (const group of scheduled.values()) this.flush(group).catch((error: unknown) => group.reads.forEach((read) => read.reject(error)));
      });
    }
    const name = `${request.entitySet.name}\u0000${selectionSignature(request.selectExpand.select)}`;
    let group = groups.get(name);
    if (group === undefined) {
      group = { plan, session, types, reads: [] };
      groups.set(name, group);
    }
    const tuple = plan.key.map((column) => key[column.property.name]);
    const reads = group.reads;
    return new Promise((resolve, reject) => reads.push({ request, tuple, single, resolve, reject }));
  }

  /** One statement for the group (a group of one is read as usual); whatever it does not answer is read alone. */
  private async flush(group: PendingGroup): Promise<void> {
    const alone = (read: PendingRead): void => {
      read.single(read.request).then(read.resolve, read.reject);
    };
    if (group.reads.length === 1) return alone(group.reads[0]);
    let found: Map<string, DecodedRow>;
    try {
      found = await this.readKeys(group);
    } catch {
      // The shared statement failed: each read runs alone and gets its own answer or error.
      return group.reads.forEach(alone);
    }
    for (const read of group.reads) {
      const row = found.get(tupleKey(read.tuple));
      if (row === undefined) alone(read);
      else read.resolve({ entities: [row.entity] });
    }
  }

  /** The group's rows by key tuple. */
  private async readKeys(group: PendingGroup): Promise<Map<string, DecodedRow>> {
    const { settings } = this;
    const { plan, types, reads, session } = group;
    const first = reads[0].request;
    const statement = new ReadStatement(
      settings.compiled,
      settings.db.sqlEngine,
      {
        path: { root: { entitySet: first.entitySet, key: undefined }, navigation: [] },
        filter: undefined,
        orderBy: [],
        selectExpand: { select: first.selectExpand.select, expand: [] },
      },
      { allColumns: false, positioned: false },
    );
    const unique = new Map<string, PrimitiveValue[]>();
    for (const read of reads) unique.set(tupleKey(read.tuple), read.tuple);
    const condition = settings.db.sqlEngine.reads.inTuples(
      plan.key.map((column) => sql.id(statement.source.alias, column.column)),
      types,
      [...unique.values()],
    );
    const scope = await ReadScope.open(settings.db, false, session === undefined ? settings : { ...settings, session });
    let rows: DecodedRow[];
    try {
      ({ rows } = await statement.read(scope.executor, { condition }));
      await scope.end();
    } catch (error) {
      await scope.fail();
      throw error;
    }
    const keyNames = plan.key.map((column) => column.property.name);
    const found = new Map<string, DecodedRow>();
    for (const row of rows) {
      settings.seen(row);
      found.set(tupleKey(entityTuple(row.entity, keyNames)), row);
    }
    return found;
  }
}
