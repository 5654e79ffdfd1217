/**
 * Structured preconditions (issue 13): the service decodes each If-Match tag into the values of
 * the concurrency properties, `preconditionCondition` turns them into a filter AST that keeps
 * exactly the entities `matches` accepts, and `conditionalWriteError` tells 404 from 412 after a
 * conditional write that changed nothing. The provider here checks If-Match the way a SQL one
 * does: one conditional step over the row, then an existence probe only when nothing changed.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { compileFilter, loadEdmx, MemoryProvider, printExpression } from '../../lib';
import type { EdmModel } from '../../lib';
import type { ODataRequest, RequestContext } from '../../lib/protocol/message';
import { encodeETag } from '../../lib/protocol';
import { conditionalWriteError, preconditionCondition } from '../../lib/provider/precondition';
import type { Entity, Precondition, UpdateRequest } from '../../lib/provider/types';
import { createService } from '../../lib/service';

const MODEL: EdmModel = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'provider', 'orders.xml'), 'utf8'));
const ORDERS = MODEL.defaultContainer.entitySets.find((set) => set.name === 'Orders');
if (ORDERS === undefined) throw new Error('no Orders');
const ORDER_TYPE = ORDERS.entityType;

/** Orders kept as rows; `update` is `UPDATE … WHERE ID = $1 AND <precondition>`, then a probe for 404/412. */
class ConditionalProvider extends MemoryProvider {
  readonly preconditions: Precondition[] = [];
  readonly rows = new Map<number, Entity>([[1, { ID: 1, Note: 'first', Version: 3 }]]);

  override async update(request: UpdateRequest, _context: RequestContext): Promise<Entity> {
    if (request.precondition !== undefined) this.preconditions.push(request.precondition);
    const id = Number(request.key.ID);
    const condition = preconditionCondition(request.precondition, request.entityType);
    const keep = condition === undefined ? () => true : compileFilter(condition);
    const row = this.rows.get(id);
    // One synchronous step, as one statement would be: the key and the precondition together.
    if (row === undefined || !keep(row)) throw conditionalWriteError(request.entitySet, request.key, this.rows.has(id));
    const updated = { ...row, ...request.values, Version: Number(row.Version) + 1 };
    this.rows.set(id, updated);
    return updated;
  }
}

function setup() {
  const provider = new ConditionalProvider(MODEL, { Customers: [], Orders: [], Lines: [] });
  const service = createService({ model: MODEL, provider, logger: () => undefined });
  const merge = async (path: string, ifMatch: string) => {
    const request: ODataRequest = {
      method: 'MERGE',
      path,
      query: '',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'if-match': ifMatch },
      body: Buffer.from(JSON.stringify({ Note: 'changed' })),
      serviceRoot: 'http://localhost/odata/',
      context: { request: {} as RequestContext['request'], state: new Map() },
    };
    const response = await service.handle(request);
    const text = typeof response.body === 'string' ? response.body : '';
    return {
      status: response.status,
      etag: response.headers.etag,
      code: text === '' ? undefined : (JSON.parse(text) as { error: { code: string } }).error.code,
    };
  };
  return { provider, merge };
}

describe('Precondition.concurrencyValues, as the service builds it', () => {
  it.each<[string, readonly Record<string, unknown>[], boolean]>([
    ['W/"3"', [{ Version: 3 }], false],
    ['"3"', [{ Version: 3 }], false],
    ['W/"1", W/"3"', [{ Version: 1 }, { Version: 3 }], false],
    ['W/"abc", W/"3"', [{ Version: 3 }], false],
    ['*', [], true],
    ['W/"2", *', [{ Version: 2 }], true],
  ])('If-Match: %s decodes to %p (any: %p)', async (header, values, any) => {
    const { provider, merge } = setup();
    await merge('Orders(1)', header);
    expect(provider.preconditions).toHaveLength(1);
    const [precondition] = provider.preconditions;
    expect([precondition.concurrencyValues, precondition.any]).toEqual([values, any]);
  });
});

describe('the If-Match check inside the write statement', () => {
  it('204 with the next ETag when a tag matches, 412 when none does, 404 when the entity does not exist', async () => {
    const { merge } = setup();
    expect(await merge('Orders(1)', 'W/"3"')).toEqual({ status: 204, etag: 'W/"4"', code: undefined });
    expect(await merge('Orders(1)', 'W/"3"')).toEqual({ status: 412, etag: undefined, code: 'PRECONDITION_FAILED' });
    expect(await merge('Orders(1)', 'W/"nonsense"')).toEqual({ status: 412, etag: undefined, code: 'PRECONDITION_FAILED' });
    expect(await merge('Orders(1)', 'W/"0", W/"4"')).toEqual({ status: 204, etag: 'W/"5"', code: undefined });
    expect(await merge('Orders(1)', '*')).toEqual({ status: 204, etag: 'W/"6"', code: undefined });
    expect(await merge('Orders(2)', 'W/"6"')).toEqual({ status: 404, etag: undefined, code: 'ENTITY_NOT_FOUND' });
    expect(await merge('Orders(2)', '*')).toEqual({ status: 404, etag: undefined, code: 'ENTITY_NOT_FOUND' });
  });
});

describe('preconditionCondition', () => {
  const precondition = (etags: string[], any = false): Precondition => {
    const concurrencyValues = etags.flatMap((tag) => {
      const match = /^W\/"(-?\d+|null)"$/.exec(tag);
      return match === null ? [] : [{ Version: match[1] === 'null' ? null : Number(match[1]) }];
    });
    return { any, etags, concurrencyValues, matches: (current) => any || etags.includes(encodeETag(current, ORDER_TYPE) ?? '') };
  };

  it('is an or of equalities over the concurrency properties, false without a decodable tag, undefined for * and no precondition', () => {
    const print = (node: ReturnType<typeof preconditionCondition>) => (node === undefined ? undefined : printExpression(node));
    expect(print(preconditionCondition(precondition(['W/"1"', 'W/"2"']), ORDER_TYPE))).toBe('Version eq 1 or Version eq 2');
    expect(print(preconditionCondition(precondition(['W/"null"']), ORDER_TYPE))).toBe('Version eq null');
    expect(print(preconditionCondition(precondition([]), ORDER_TYPE))).toBe('false');
    expect(preconditionCondition(precondition(['W/"1"'], true), ORDER_TYPE)).toBeUndefined();
    expect(preconditionCondition(undefined, ORDER_TYPE)).toBeUndefined();
  });

  it('keeps exactly the entities that matches() accepts', () => {
    const lists = [['W/"0"'], ['W/"1"', 'W/"5"'], ['W/"null"'], ['W/"-3"', 'W/"null"'], []];
    const rows: Entity[] = [0, 1, 2, 5, -3, null].map((Version) => ({ ID: 1, Version }));
    for (const list of lists) {
      const given = precondition(list);
      const condition = preconditionCondition(given, ORDER_TYPE);
      if (condition === undefined) throw new Error('expected a condition');
      const keep = compileFilter(condition);
      expect(rows.map((row) => keep(row))).toEqual(rows.map((row) => given.matches(row)));
    }
  });
});

describe('conditionalWriteError', () => {
  it('is 412 PRECONDITION_FAILED for an existing entity and 404 ENTITY_NOT_FOUND naming the key otherwise', () => {
    const failed = conditionalWriteError(ORDERS, { ID: 7 }, true);
    const missing = conditionalWriteError(ORDERS, { ID: 7 }, false);
    expect([failed.status, failed.code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect([missing.status, missing.code, missing.message]).toEqual([404, 'ENTITY_NOT_FOUND', "No entity with the key (7) exists in 'Orders'."]);
  });
});
