/**
 * The SQLSTATE table (lib/sql/refusals.ts) through `toODataError`: each (SQLSTATE, operation) a
 * client can cause answers its status and code, everything else passes on as itself (500,
 * logged); messages name the entity set and, where the database names it (the driver's `table`
 * and `column`, or the type in its message; for an integer too wide for its column, the one
 * written value beyond that type), the property, and never SQL, tables, constraints or
 * the values the driver quotes. End-to-end refusals on PGlite are in spec/sql/provider/refusals.spec.ts.
 */
import { defineModel, isODataError, type ODataError } from '../../lib';
import { toODataError, type ErrorScene } from '../../lib/sql/error-map';
import { POSTGRES_ERRORS } from '../../lib/sql/postgres/errors';
import { compileMapping } from '../../lib/sql/mapping/compiled';
import { resolveMapping } from '../../lib/sql/mapping/resolve';
import type { SqlOperation } from '../../lib/sql/refusals';
import { binary, literal, propertyMember } from '../../lib/provider/nodes';

const model = defineModel({
  namespace: 'Shop',
  entityTypes: [
    {
      name: 'Gadget',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Name', type: 'Edm.String' },
        { name: 'Mood', type: 'Edm.String' },
        { name: 'OtherMood', type: 'Edm.String' },
        { name: 'Sizes', type: 'Edm.String' },
        { name: 'During', type: 'Edm.String' },
        { name: 'Settings', type: 'Edm.String' },
        { name: 'Address', type: 'Edm.String' },
        { name: 'Amount', type: 'Edm.Int32' },
      ],
      navigationProperties: [{ name: 'Maker', relationship: 'Shop.Gadget_Maker', fromRole: 'Gadgets', toRole: 'Maker' }],
    },
    { name: 'Maker', key: ['ID'], properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }] },
  ],
  associations: [
    {
      name: 'Gadget_Maker',
      ends: [
        { role: 'Gadgets', type: 'Shop.Gadget', multiplicity: '*' },
        { role: 'Maker', type: 'Shop.Maker', multiplicity: '1' },
      ],
    },
  ],
  entityContainers: [
    {
      name: 'Shop',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Gadgets', entityType: 'Shop.Gadget' },
        { name: 'Makers', entityType: 'Shop.Maker' },
      ],
      associationSets: [
        {
          name: 'Gadget_Maker',
          association: 'Shop.Gadget_Maker',
          ends: [
            { role: 'Gadgets', entitySet: 'Gadgets' },
            { role: 'Maker', entitySet: 'Makers' },
          ],
        },
      ],
    },
  ],
});

const mapping = resolveMapping(model, {
  schema: 'shop',
  entitySets: {
    Gadgets: {
      table: 'gadgets',
      columns: { Name: 'name', Mood: 'mood', OtherMood: 'other_mood', Sizes: 'sizes', During: 'during', Settings: 'settings', Address: 'address' },
      columnTypes: { Mood: 'shop.mood', OtherMood: 'shop.mood', Sizes: 'integer[]', During: 'tstzrange', Settings: 'jsonb', Address: 'inet' },
    },
  },
  associationSets: { Gadget_Maker: { columns: { ID: 'maker_id' } } },
});
const compiled = compileMapping(model, mapping);
const gadgets = model.defaultContainer.entitySets[0];
const FILTER_OF = binary('eq', binary('div', propertyMember(gadgets.entityType, 'Amount'), literal(0, 'Edm.Int32')), literal(1, 'Edm.Int32'));

/** A driver error as `pg` and PGlite throw it: SQLSTATE in `code`, the rest as the server sent it. */
function driverError(code: string, fields: Record<string, string> = {}): Error {
  return Object.assign(new Error(fields.message ?? 'database error'), { code, ...fields });
}

function refusal(error: unknown, operation: SqlOperation, extra: Partial<ErrorScene> = {}): ODataError {
  const mapped = toODataError(error, {
    operation,
    compiled,
    retryAfterSeconds: 2,
    statementTimeoutMs: 50,
    entitySet: gadgets,
    errors: POSTGRES_ERRORS,
    ...extra,
  });
  if (!isODataError(mapped)) throw new Error(`not refused: ${String(error)}`);
  return mapped;
}

const WRITES: readonly SqlOperation[] = ['create', 'update'];

// (SQLSTATE, operation) -> (status, code): the table a later issue reuses.
const TABLE: readonly (readonly [string, readonly SqlOperation[], number, string])[] = [
  ['57014', ['read', 'create', 'update', 'delete', 'link'], 503, 'STATEMENT_TIMEOUT'],
  ['22012', ['read'], 400, 'FILTER_DIVISION_BY_ZERO'],
  ['22003', ['read'], 400, 'BAD_REQUEST'],
  ['22003', WRITES, 400, 'BODY_INVALID'],
  ['22003', ['delete', 'link'], 400, 'BAD_REQUEST'],
  ...['22P02', '22P03', '22007', '22008', '22009', '22015', '22021', '22023', '22025', '22030', '22032', '22P05'].flatMap((state) => [
    [state, WRITES, 400, 'BODY_INVALID'] as const,
    [state, ['read', 'delete', 'link'], 400, 'BAD_REQUEST'] as const,
  ]),
  ['22001', WRITES, 400, 'BODY_INVALID'],
  ['22001', ['read', 'delete', 'link'], 400, 'BAD_REQUEST'],
  ['23502', [...WRITES, 'link'], 400, 'BODY_INVALID'],
  ['23502', ['delete'], 409, 'CONSTRAINT_VIOLATION'],
  ['23514', [...WRITES, 'link'], 400, 'BODY_INVALID'],
  ['23514', ['delete'], 409, 'CONSTRAINT_VIOLATION'],
  ['23505', ['create', 'update', 'delete', 'link'], 409, 'CONSTRAINT_VIOLATION'],
  ['23P01', ['create', 'update', 'delete', 'link'], 409, 'CONSTRAINT_VIOLATION'],
  ['23503', WRITES, 400, 'BODY_INVALID'],
  ['23503', ['delete', 'link'], 409, 'CONSTRAINT_VIOLATION'],
  ['42501', ['read', 'create', 'update', 'delete', 'link'], 403, 'FORBIDDEN'],
];

describe('the SQLSTATE table', () => {
  const rows = TABLE.flatMap(([state, operations, status, code]) => operations.map((operation) => [state, operation, status, code] as const));

  it.each(rows)('%s in %s is %i %s', (state, operation, status, code) => {
    const error = refusal(driverError(state), operation, { filter: FILTER_OF });
    expect([error.status, error.code]).toEqual([status, code]);
  });

  it.each([
    ['22012', 'create'],
    ['23505', 'read'],
    ['42P10', 'create'],
    ['0A000', 'create'],
    ['XX000', 'read'],
  ] as const)('%s in %s is not the client’s doing: it passes on as itself (500, logged)', (state, operation) => {
    const error = driverError(state);
    expect(toODataError(error, { operation, compiled, retryAfterSeconds: 1, errors: POSTGRES_ERRORS })).toBe(error);
  });

  it('sets Retry-After on a statement timeout and names the timeout', () => {
    const error = refusal(driverError('57014'), 'read');
    expect(error.headers).toEqual({ 'retry-after': '2' });
    expect(error.message).toContain('50 ms');
  });

  it('keeps the driver error as the cause, which never reaches the wire', () => {
    const cause = driverError('23505', { table: 'gadgets', schema: 'shop', constraint: 'gadgets_name_key', detail: 'Key (name)=(secret) already exists.' });
    const error = refusal(cause, 'create');
    expect(error.cause).toBe(cause);
    expect(JSON.stringify(error)).not.toMatch(/gadgets_name_key|secret|Key \(/);
  });
});

describe('what a refusal names', () => {
  it.each([
    [driverError('23502', { table: 'gadgets', schema: 'shop', column: 'name' }), "'Name' of 'Gadgets' needs a value.", 'Name'],
    [driverError('23502', { table: 'gadgets', schema: 'shop', column: 'maker_id' }), "the link 'Maker' of 'Gadgets' is required.", 'Maker'],
    [driverError('23514', { table: 'gadgets', schema: 'shop', constraint: 'gadgets_amount_check' }), "an entry of 'Gadgets' breaks a constraint", undefined],
    [
      driverError('22P02', { message: 'invalid input value for enum mood: "grumpy"' }),
      "'Mood' of 'Gadgets' is not one of the values its column allows.",
      'Mood',
    ],
    [driverError('22P02', { message: 'malformed array literal: "{1,x"' }), "'Sizes' of 'Gadgets' is not an array its column accepts", 'Sizes'],
    [driverError('22P02', { message: 'malformed range literal: "[1,"' }), "'During' of 'Gadgets' is not a range its column accepts", 'During'],
    [driverError('22P02', { message: 'invalid input syntax for type json' }), "'Settings' of 'Gadgets' is not valid JSON.", 'Settings'],
    [driverError('22P02', { message: 'invalid input syntax for type inet: "1.2.3.x"' }), "'Address' of 'Gadgets' is not an IP address", 'Address'],
    [driverError('22P02', { message: 'invalid input syntax for type uuid: "x"' }), "a value of 'Gadgets' is not a value its column accepts.", undefined],
    [driverError('22001', { message: 'value too long for type character varying(3)' }), "a value of 'Gadgets' is longer than its column can hold.", undefined],
  ])('%#: %p', (error, message, target) => {
    const refused = refusal(error, 'create', { values: { Mood: 'grumpy', OtherMood: 'ok' } });
    expect(refused.message).toContain(message);
    expect(refused.target).toBe(target);
  });

  it('tells two columns of one type apart by the value the database quotes', () => {
    const error = driverError('22P02', { message: 'invalid input value for enum mood: "grumpy"' });
    expect(refusal(error, 'create', { values: { Mood: 'ok', OtherMood: 'grumpy' } }).target).toBe('OtherMood');
    expect(refusal(error, 'update', { values: { Mood: 'grumpy', OtherMood: 'grumpy' } }).target).toBeUndefined();
  });

  it.each([
    ['smallint', { ID: 1, Amount: 70000 }, 'Amount'],
    ['smallint', { ID: 1, Amount: -32769 }, 'Amount'],
    ['integer', { ID: 1, Amount: 4294967296 }, 'Amount'],
    ['smallint', { ID: 1, Amount: 32767 }, undefined],
    ['smallint', { ID: 40000, Amount: 70000 }, undefined],
    ['integer', { ID: 1, Amount: 70000 }, undefined],
  ] as const)('names the one written value a narrower %s column cannot hold: %p', (type, values, target) => {
    const refused = refusal(driverError('22003', { message: `${type} out of range` }), 'update', { values });
    expect([refused.status, refused.code, refused.target]).toEqual([400, 'BODY_INVALID', target]);
    expect(refused.message).toContain(`${target === undefined ? "a value of 'Gadgets'" : `'${target}' of 'Gadgets'`} is out of the range its column can hold.`);
  });

  it('names the entity set and what the role may not do for a missing privilege', () => {
    expect(refusal(driverError('42501', { message: 'permission denied for table gadgets' }), 'create').message).toBe(
      "The database does not allow this user to create entries in 'Gadgets'.",
    );
    expect(refusal(driverError('42501'), 'delete').message).toBe("The database does not allow this user to delete entries of 'Gadgets'.");
  });

  it('never repeats the driver’s message, detail, table, schema or constraint', () => {
    for (const [state, operations] of TABLE.map(([state, operations]) => [state, operations] as const)) {
      for (const operation of operations) {
        const cause = driverError(state, {
          message: 'invalid input syntax for type inet: "s3cr3t" in relation "tbl_x"',
          table: 'tbl_x',
          schema: 'sch_y',
          constraint: 'con_z',
          detail: 'Key (a)=(s3cr3t)',
        });
        const text = JSON.stringify(refusal(cause, operation, { filter: FILTER_OF }));
        expect(text).not.toMatch(/s3cr3t|tbl_x|sch_y|con_z|relation|Key \(/);
      }
    }
  });
});
