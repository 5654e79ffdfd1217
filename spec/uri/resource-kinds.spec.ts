import { parseResourcePath } from '../../lib/uri/resource-path';
import {
  ALLOWED_QUERY_OPTIONS,
  QUERY_OPTION_TARGET_DESCRIPTIONS,
  SYSTEM_QUERY_OPTIONS,
  isQueryOptionAllowed,
  isSystemQueryOption,
  queryOptionTarget,
  shapedResultOf,
} from '../../lib/uri/resource-kinds';
import type { QueryOptionTarget, SystemQueryOption } from '../../lib/uri/resource-kinds';
import { demoModel, uriModel } from './uri-fixtures';

/** The matrix of MS-ODATA §2.2.3.6.1, one letter per option in the order of the header. */
const HEADER: readonly SystemQueryOption[] = ['$filter', '$orderby', '$top', '$skip', '$skiptoken', '$inlinecount', '$expand', '$select', '$format'];
const MATRIX: Record<QueryOptionTarget, string> = {
  //                                    f o t s k i e s F
  ServiceDocument: '                    . . . . . . . . F',
  Metadata: '                           . . . . . . . . .',
  Batch: '                              . . . . . . . . .',
  EntitySet: '                          f o t s k i e s F',
  NavigationCollection: '               f o t s k i e s F',
  Entity: '                             f . . . . . e s F',
  NavigationEntity: '                   f . . . . . e s F',
  CollectionCount: '                    f o t s . . . . F',
  ComplexProperty: '                    . . . . . . . . F',
  PrimitiveProperty: '                  . . . . . . . . F',
  PropertyValue: '                      . . . . . . . . .',
  MediaResource: '                      f . . . . . . . .',
  Links: '                              f o t s k i . . F',
  Link: '                               f . . . . . . . F',
  LinksCount: '                         f o t s . . . . F',
  'ServiceOperation.EntityCollection': 'f o t s k i e s F',
  'ServiceOperation.Entity': '          . . . . . . e s F',
  'ServiceOperation.ComplexCollection': '. . . . . . . . F',
  'ServiceOperation.Complex': '         . . . . . . . . F',
  'ServiceOperation.PrimitiveCollection': '. . . . . . . . F',
  'ServiceOperation.Primitive': '       . . . . . . . . F',
  'ServiceOperation.Void': '            . . . . . . . . F',
  'ServiceOperation.Count': '           f o t s . . . . F',
  'ServiceOperation.Value': '           . . . . . . . . .',
};

function row(cells: string): SystemQueryOption[] {
  const marks = cells.trim().split(' ');
  return HEADER.filter((_, i) => marks[i] !== '.');
}

describe('ALLOWED_QUERY_OPTIONS', () => {
  it('has a row for every target and nothing else', () => {
    expect(Object.keys(ALLOWED_QUERY_OPTIONS).sort()).toEqual(Object.keys(MATRIX).sort());
    expect(Object.keys(QUERY_OPTION_TARGET_DESCRIPTIONS).sort()).toEqual(Object.keys(MATRIX).sort());
  });

  it.each(Object.entries(MATRIX) as [QueryOptionTarget, string][])('%s', (target, cells) => {
    expect([...ALLOWED_QUERY_OPTIONS[target]].sort()).toEqual(row(cells).sort());
  });

  it('knows exactly the nine system query options of OData 2.0', () => {
    expect([...SYSTEM_QUERY_OPTIONS].sort()).toEqual([...HEADER].sort());
    expect(SYSTEM_QUERY_OPTIONS.every(isSystemQueryOption)).toBe(true);
    expect(['$count', '$Filter', 'filter', '$search', '$apply'].some(isSystemQueryOption)).toBe(false);
  });
});

describe('queryOptionTarget', () => {
  it.each<[string, 'demo' | 'uri', QueryOptionTarget]>([
    ['', 'demo', 'ServiceDocument'],
    ['$metadata', 'demo', 'Metadata'],
    ['$batch', 'demo', 'Batch'],
    ['Products', 'demo', 'EntitySet'],
    ['Categories(1)/Products', 'demo', 'NavigationCollection'],
    ['Products(1)', 'demo', 'Entity'],
    ['Products(1)/Category', 'demo', 'NavigationEntity'],
    ['Products/$count', 'demo', 'CollectionCount'],
    ['Suppliers(1)/Address', 'demo', 'ComplexProperty'],
    ['Products(1)/Name', 'demo', 'PrimitiveProperty'],
    ['Products(1)/Name/$value', 'demo', 'PropertyValue'],
    ['Photos(1)/$value', 'uri', 'MediaResource'],
    ['Categories(1)/$links/Products', 'demo', 'Links'],
    ['Products(1)/$links/Category', 'demo', 'Link'],
    ['Categories(1)/$links/Products/$count', 'demo', 'LinksCount'],
    ['GetOrders', 'uri', 'ServiceOperation.EntityCollection'],
    ['GetOrder', 'uri', 'ServiceOperation.Entity'],
    ['GetAddresses', 'uri', 'ServiceOperation.ComplexCollection'],
    ['GetAddress', 'uri', 'ServiceOperation.Complex'],
    ['GetNames', 'uri', 'ServiceOperation.PrimitiveCollection'],
    ['GetCount', 'uri', 'ServiceOperation.Primitive'],
    ['Reset', 'uri', 'ServiceOperation.Void'],
    ['GetOrders/$count', 'uri', 'ServiceOperation.Count'],
    ['GetCount/$value', 'uri', 'ServiceOperation.Value'],
  ])('%s -> %s', (path, model, target) => {
    expect(queryOptionTarget(parseResourcePath(path, model === 'demo' ? demoModel : uriModel))).toBe(target);
  });

  it.each([
    ['GetOrders/$count', 'Count', 'Entity'],
    ['GetOrder', 'Entity', 'Entity'],
    ['GetAddresses', 'ComplexCollection', 'Complex'],
    ['GetCount/$value', 'Value', 'Primitive'],
    ['Reset', 'Void', undefined],
  ])('%s is shaped %s with its %s return type', (text, shape, returnKind) => {
    const path = parseResourcePath(text, uriModel);
    if (path.kind !== 'ServiceOperation') throw new Error(`${text} is a ${path.kind}`);
    const shaped = shapedResultOf(path.functionImport, path.suffix);
    expect([shaped.shape, shaped.returnType?.kind]).toEqual([shape, returnKind]);
    expect(shaped.returnType).toBe(path.functionImport.returnType);
  });

  it('answers isQueryOptionAllowed from the table', () => {
    const entity = parseResourcePath('Products(1)', demoModel);
    expect(HEADER.filter((option) => isQueryOptionAllowed(entity, option))).toEqual(['$filter', '$expand', '$select', '$format']);
  });
});
