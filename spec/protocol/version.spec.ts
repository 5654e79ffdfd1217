import {
  checkRequestFeatures,
  checkRequestVersion,
  checkResponseVersion,
  compareVersions,
  formatVersion,
  parseVersionHeader,
} from '../../lib/protocol/version';
import { DEFAULT_LIMITS } from '../../lib/options';
import { parseQueryOptions, parseResourcePath } from '../../lib/uri';
import { DEMO_MODEL } from '../helpers/demo';
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
    [
      { dataserviceversion: '2.0;', maxdataserviceversion: '2.0' },
      { major: 2, minor: 0 },
      { major: 2, minor: 0 },
    ],
    [
      { dataserviceversion: '1.0;NetFx', maxdataserviceversion: '3.0;NetFx' },
      { major: 1, minor: 0, agent: 'NetFx' },
      { major: 3, minor: 0, agent: 'NetFx' },
    ],
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
  it.each<[ProtocolVersion, string]>([
    ['1.0', '1.0;'],
    ['2.0', '2.0;'],
  ])('%s -> %s', (version, header) => {
    expect(formatVersion(version)).toBe(header);
  });
});

describe('checkRequestFeatures', () => {
  /** Check `path?query` with the given DataServiceVersion; `inherited` marks it as taken from a $batch. */
  const check =
    (target: string, version: string | undefined, inherited = false) =>
    () => {
      const [path, query = ''] = target.split('?');
      const resource = parseResourcePath(path, DEMO_MODEL);
      const options = parseQueryOptions(query, resource, DEMO_MODEL, DEFAULT_LIMITS);
      const headers = version === undefined ? {} : { dataserviceversion: version };
      checkRequestFeatures({ headers, inheritedHeaders: inherited ? new Set(['dataserviceversion']) : undefined }, resource, options);
    };

  it.each([
    ['Products?$inlinecount=allpages', '1.0', '$inlinecount=allpages'],
    ['Products?$inlinecount=allpages', '1.0;NetFx', '$inlinecount=allpages'],
    ['Products?$select=Name', '1.0', '$select'],
    ['Products?$expand=Category&$select=Category/Name', '1.0', '$select'],
    ['Products?$skiptoken=1', '1.0', '$skiptoken'],
    ['Products/$count', '1.0', 'the $count segment'],
    ['Categories(1)/$links/Products/$count', '1.0', 'the $count segment'],
    ['GetProductsByRating/$count?rating=3', '1.0', 'the $count segment'],
  ])('%s with DataServiceVersion %s is 400 naming %s and the version it needs', (target, version, feature) => {
    const declared = version.split(';')[0];
    expect(failure(check(target, version))).toEqual([
      'VERSION_REQUEST_TOO_LOW',
      400,
      `The request uses ${feature}, which needs DataServiceVersion 2.0, but it declares DataServiceVersion ${declared}.`,
    ]);
  });

  it.each([
    ['Products?$inlinecount=allpages', '2.0'],
    ['Products?$inlinecount=allpages', '2.0;NetFx'],
    ['Products?$inlinecount=allpages', undefined],
    ['Products?$select=Name', '3.0'],
    ['Products?$inlinecount=none&$top=1&$filter=ID eq 1&$expand=Category', '1.0'],
    ['Products(1)?$expand=Category', '1.0'],
    ['Products?$inlinecount=allpages', 'garbage'],
  ])('%s with DataServiceVersion %s is accepted', (target, version) => {
    expect(check(target, version)).not.toThrow();
  });

  it("accepts a $batch part that inherits the outer request's 1.0 (datajs stamps it on every batch)", () => {
    expect(check('Products?$inlinecount=allpages', '1.0', true)).not.toThrow();
    expect(check('Products?$select=Name', '1.0', true)).not.toThrow();
  });
});
