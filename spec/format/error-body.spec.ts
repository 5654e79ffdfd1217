/** Error bodies: shape, what is whitelisted, and what only debug mode reveals. */
import { ODataError } from '../../lib/errors';
import { writeError } from '../../lib/format';
import { attr, one, parseTree, select } from './xml-tree';

const secret = new Error('password=hunter2 in connection string');
const internal = ODataError.fromCode('INTERNAL', {}, { cause: secret });

describe('writeError', () => {
  it('writes code and English message without innererror when there are no details', () => {
    const root = parseTree(writeError(ODataError.fromCode('ENTITY_NOT_FOUND', { key: '(1)', entitySet: 'Products' }), 'xml', { debug: false }));
    expect([root.local, root.uri]).toEqual(['error', 'http://schemas.microsoft.com/ado/2007/08/dataservices/metadata']);
    expect(one(root, 'm:code').text).toBe('ENTITY_NOT_FOUND');
    expect(one(root, 'm:message').text).toBe("No entity with the key (1) exists in 'Products'.");
    expect(attr(one(root, 'm:message'), 'xml:lang')).toBe('en-US');
    expect(select(root, 'm:innererror')).toHaveLength(0);
  });

  it('never shows the cause of a masked error without debug', () => {
    for (const format of ['xml', 'json'] as const) {
      const body = writeError(internal, format, { debug: false });
      expect(body).not.toContain('hunter2');
      expect(body).not.toContain('innererror');
    }
  });

  it('shows the cause chain with debug', () => {
    const xml = parseTree(writeError(internal, 'xml', { debug: true }));
    expect(one(xml, 'm:innererror/m:internalexception/m:message').text).toBe('password=hunter2 in connection string');
    const body = JSON.parse(writeError(internal, 'json', { debug: true })) as {
      error: { innererror: { type: string; internalexception: { message: string; type: string } } };
    };
    expect(body.error.innererror.type).toBe('ODataError');
    expect(body.error.innererror.internalexception).toMatchObject({ message: 'password=hunter2 in connection string', type: 'Error' });
  });

  it('stops at a cyclic cause chain and describes non-Error causes', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.defineProperty(a, 'cause', { value: b });
    const cyclic = ODataError.fromCode('INTERNAL', {}, { cause: a });
    const body = JSON.parse(writeError(cyclic, 'json', { debug: true })) as {
      error: { innererror: { internalexception: { internalexception: { message: string; internalexception?: unknown } } } };
    };
    expect(body.error.innererror.internalexception.internalexception.message).toBe('b');
    expect(body.error.innererror.internalexception.internalexception.internalexception).toBeUndefined();
    const odd = JSON.parse(writeError(ODataError.fromCode('INTERNAL', {}, { cause: { reason: 42 } }), 'json', { debug: true })) as {
      error: { innererror: { internalexception: { message: string; type: string } } };
    };
    expect(odd.error.innererror.internalexception).toMatchObject({ message: '{"reason":42}', type: 'object' });
  });

  it('writes details for SAPUI5 as innererror.errordetails in both formats', () => {
    const error = ODataError.fromCode('BAD_REQUEST', { detail: 'x' }, { details: [{ code: 'C1', message: 'm1', target: 'Price', severity: 'warning' }] });
    const body = JSON.parse(writeError(error, 'json', { debug: false })) as unknown;
    expect(body).toEqual({
      error: {
        code: 'BAD_REQUEST',
        message: { lang: 'en-US', value: 'x' },
        innererror: { errordetails: [{ code: 'C1', message: 'm1', target: 'Price', severity: 'warning' }] },
      },
    });
    const detail = one(parseTree(writeError(error, 'xml', { debug: false })), 'm:innererror/m:errordetails/m:errordetail');
    expect(detail.children.map((c) => [c.local, c.text])).toEqual([
      ['code', 'C1'],
      ['message', 'm1'],
      ['target', 'Price'],
      ['severity', 'warning'],
    ]);
  });

  it('escapes messages in XML and JSON', () => {
    const error = ODataError.fromCode('BAD_REQUEST', { detail: `<&"'\u0001>` });
    expect(one(parseTree(writeError(error, 'xml', { debug: false })), 'm:message').text).toBe(`<&"'\uFFFD>`);
    expect((JSON.parse(writeError(error, 'json', { debug: false })) as { error: { message: { value: string } } }).error.message.value).toBe(`<&"'\u0001>`);
  });
});
