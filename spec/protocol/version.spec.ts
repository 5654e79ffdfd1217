import { checkRequestVersion, checkResponseVersion, compareVersions, formatVersion, parseVersionHeader } from '../../lib/protocol/version';
import type { ProtocolVersion, VersionHeader } from '../../lib/protocol/version';
import { failureOf as failure } from '../helpers/odata-error';

describe('parseVersionHeader', () => {
  it.each<[string, VersionHeader | undefined]>([
    ['1.0', { major: 1, minor: 0 }],
    ['2.0', { major: 2, minor: 0 }],
    ['2.0;', { major: 2, minor: 0 }],
    [' 2.0 ; ', { major: 2, minor: 0 }],
    ['1.0;NetFx', { major: 1, minor: 0, agent: 'NetFx' }],
    ['3.0;Silverlight', { major: 3, minor: 0, agent: 'Silverlight' }],
    ['10.25', { major: 10, minor: 25 }],
    ['2', undefined],
    ['2.', undefined],
    ['.0', undefined],
    ['0.9', undefined],
    ['v2.0', undefined],
    ['2.0.1', undefined],
    ['2,0', undefined],
    ['', undefined],
    [';NetFx', undefined],
    ['1234567890.1234', undefined],
  ])('%p -> %p', (text, expected) => {
    expect(parseVersionHeader(text)).toEqual(expected);
  });

  it('orders versions', () => {
    expect(compareVersions({ major: 1, minor: 0 }, { major: 2, minor: 0 })).toBeLessThan(0);
    expect(compareVersions({ major: 2, minor: 1 }, { major: 2, minor: 0 })).toBeGreaterThan(0);
    expect(compareVersions({ major: 2, minor: 0 }, { major: 2, minor: 0 })).toBe(0);
  });
});

describe('checkRequestVersion', () => {
  it.each<[Record<string, string | undefined>, VersionHeader | undefined, VersionHeader | undefined]>([
    [{}, undefined, undefined],
    [{ dataserviceversion: '1.0' }, { major: 1, minor: 0 }, undefined],
    [{ dataserviceversion: '2.0;', maxdataserviceversion: '2.0' }, { major: 2, minor: 0 }, { major: 2, minor: 0 }],
    [{ dataserviceversion: '1.0;NetFx', maxdataserviceversion: '3.0;NetFx' }, { major: 1, minor: 0, agent: 'NetFx' }, { major: 3, minor: 0, agent: 'NetFx' }],
    [{ maxdataserviceversion: '1.0' }, undefined, { major: 1, minor: 0 }],
    [{ dataserviceversion: '' }, undefined, undefined],
  ])('%p', (headers, dataServiceVersion, maxDataServiceVersion) => {
    expect(checkRequestVersion(headers)).toEqual({ dataServiceVersion, maxDataServiceVersion });
  });

  it.each<[Record<string, string>, string, string]>([
    [{ dataserviceversion: '3.0' }, 'VERSION_TOO_HIGH', 'The DataServiceVersion 3.0 is not supported'],
    [{ dataserviceversion: '2.1;' }, 'VERSION_TOO_HIGH', 'The DataServiceVersion 2.1 is not supported'],
    [{ dataserviceversion: 'abc' }, 'VERSION_INVALID', "Invalid DataServiceVersion header 'abc'."],
    [{ maxdataserviceversion: '2' }, 'VERSION_INVALID', "Invalid MaxDataServiceVersion header '2'."],
    [{ dataserviceversion: '0.5' }, 'VERSION_INVALID', "Invalid DataServiceVersion header '0.5'."],
  ])('%p -> %s', (headers, code, message) => {
    const [actualCode, status, actualMessage] = failure(() => checkRequestVersion(headers));
    expect([actualCode, status]).toEqual([code, 400]);
    expect(actualMessage).toContain(message);
  });
});

describe('checkResponseVersion', () => {
  it.each<[ProtocolVersion, string | undefined]>([
    ['1.0', undefined],
    ['2.0', undefined],
    ['1.0', '1.0'],
    ['2.0', '2.0'],
    ['2.0', '2.0;NetFx'],
    ['2.0', '3.0'],
    ['1.0', '2.0'],
    ['2.0', ' '],
  ])('a %s response under MaxDataServiceVersion %p is fine', (required, max) => {
    expect(() => checkResponseVersion(required, max)).not.toThrow();
  });

  it('refuses a 2.0 response to a 1.0 client with VERSION_TOO_LOW', () => {
    expect(failure(() => checkResponseVersion('2.0', '1.0;NetFx'))).toEqual([
      'VERSION_TOO_LOW',
      400,
      'The response requires DataServiceVersion 2.0, but MaxDataServiceVersion is 1.0.',
    ]);
  });

  it('refuses an unreadable MaxDataServiceVersion', () => {
    expect(failure(() => checkResponseVersion('1.0', 'x'))[0]).toBe('VERSION_INVALID');
  });
});

describe('formatVersion', () => {
  it.each<[ProtocolVersion, string]>([['1.0', '1.0;'], ['2.0', '2.0;']])('%s -> %s', (version, header) => {
    expect(formatVersion(version)).toBe(header);
  });
});
