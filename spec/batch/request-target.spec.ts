import { servicePathOf, toServiceTarget } from '../../lib/batch/request-target';
import { catchODataError } from './helpers';

describe('toServiceTarget', () => {
  it.each([
    // relative to the service root: datajs, SAPUI5, MS-ODATA examples
    ['Products(1)', '/odata', 'Products(1)', ''],
    ["Products?$filter=Name%20eq%20'x'&$top=2", '/odata', 'Products', "$filter=Name%20eq%20'x'&$top=2"],
    ['$metadata', '/odata', '$metadata', ''],
    ['$1/Products', '/odata', '$1/Products', ''],
    ['?$format=json', '/odata', '', '$format=json'],
    // absolute path with the mount path: SAP Cloud SDK
    ['/odata/Products(ID=1)', '/odata', 'Products(ID=1)', ''],
    ['/odata', '/odata', '', ''],
    ['/odata/', '/odata', '', ''],
    ['/odata?$format=json', '/odata', '', '$format=json'],
    ['/sap/opu/odata/sap/API_COMMON_SRV/A_CommonEntity?$format=json', '/sap/opu/odata/sap/API_COMMON_SRV', 'A_CommonEntity', '$format=json'],
    // absolute path outside the mount path: SAP Cloud SDK relativeToEntity
    ['/Products(1)', '/odata', 'Products(1)', ''],
    ['/odatax/Products', '/odata', 'odatax/Products', ''],
    // service mounted at the root
    ['/Products', '', 'Products', ''],
    // absolute URL: WCF Data Services client; the authority is not checked
    ['http://localhost:4004/odata/Products(1)?$expand=Category', '/odata', 'Products(1)', '$expand=Category'],
    ['HTTPS://proxy.example.com/odata/Products', '/odata', 'Products', ''],
    ['http://host', '/odata', '', ''],
    ['http://host?x=1', '/odata', '', 'x=1'],
    // bytes above 0x7E are percent-encoded (they arrive as ISO-8859-1 characters)
    ['Products(\u00c3\u00a4)', '/odata', 'Products(%C3%A4)', ''],
  ])('%s (mounted at %j) -> path %j, query %j', (target, servicePath, path, query) => {
    expect(toServiceTarget(target, servicePath, 'part 1')).toEqual({ path, query });
  });

  it.each([
    ['*', 'is not a resource path'],
    ['Products#frag', "contains '#'; a fragment is not part of a request target"],
    ['//host/odata/Products', "starts with '//'"],
    ['Prod\u0000ucts', 'contains a control character or space'],
    ['Prod\u007fucts', 'contains a control character or space'],
  ])('refuses %j with BATCH_SYNTAX', (target, detail) => {
    const error = catchODataError(() => toServiceTarget(target, '/odata', 'part 3'));
    expect([error.status, error.code]).toEqual([400, 'BATCH_SYNTAX']);
    expect(error.message).toContain(`part 3: the request target '`);
    expect(error.message).toContain(detail);
  });
});

describe('servicePathOf', () => {
  it.each([
    ['http://localhost:4004/odata/', '/odata'],
    ['http://localhost:4004/sap/opu/odata/sap/API_SRV/', '/sap/opu/odata/sap/API_SRV'],
    ['http://localhost:4004/', ''],
    ['not a url', ''],
  ])('%s -> %j', (root, path) => {
    expect(servicePathOf(root)).toBe(path);
  });
});
