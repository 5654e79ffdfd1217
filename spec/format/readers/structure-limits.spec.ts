/**
 * Bodies refused by their structure before the expensive part (issue 11, item 11): a JSON object
 * with more members, or an `m:properties` with more property elements, than any type of the model
 * can hold, and an XML element with more attributes than OData ever writes. The bound is derived
 * from the model; bodies within it are read as before.
 */
import { readAtomEntry, readJsonEntry, readXmlProperty } from '../../../lib/format/readers';
import { MAX_DYNAMIC_PROPERTIES, modelMemberLimit } from '../../../lib/format/structure-limits';
import { ATOM_NAMESPACES, atomEntry, catchODataError, contextFor, demoModel, propertyOf, targetOf, writeModel } from './reader-fixtures';

const products = targetOf(demoModel, 'Products');
const demo = contextFor(demoModel);

describe('the member bound of a model', () => {
  it('is the largest type with its navigation properties and __metadata (Product: 7 + 2 + 1)', () => {
    expect(modelMemberLimit(demoModel)).toBe(10);
  });

  it('adds the dynamic-property allowance when the model has an open type (Item: 22 + 3 + 1, and the open Bag)', () => {
    expect(MAX_DYNAMIC_PROPERTIES).toBe(1000);
    expect(modelMemberLimit(writeModel)).toBe(26 + 1000);
  });
});

describe('JSON objects with more members than the model holds', () => {
  it('reads a full Product (every property, both links, __metadata)', () => {
    const body = JSON.stringify({
      __metadata: { type: 'ODataDemo.Product' },
      ID: 1,
      Name: 'n',
      Description: 'd',
      ReleaseDate: '/Date(0)/',
      DiscontinuedDate: null,
      Rating: 1,
      Price: '1',
      Category: { __metadata: { uri: 'Categories(0)' } },
      Supplier: { __metadata: { uri: 'Suppliers(0)' } },
    });
    expect(readJsonEntry(Buffer.from(body), products, demo).properties.size).toBe(7);
  });

  it('refuses the 11th member at the comma before it, with its position', () => {
    const members = Array.from({ length: 11 }, (_, i) => `"P${i}":1`);
    const text = `{${members.join(',')}}`;
    const error = catchODataError(() => readJsonEntry(Buffer.from(text), products, demo));
    expect([error.status, error.code, error.position]).toEqual([400, 'BODY_INVALID', text.indexOf(',"P10"')]);
    expect(error.message).toBe(
      `The request body is invalid: a JSON object has more than 10 members (at position ${text.indexOf(',"P10"')}), more than any type of the model holds.`,
    );
  });

  it('refuses an object of 800,000 keys (9.9 MB) at its 11th member, without handing it to JSON.parse', () => {
    const keys: string[] = [];
    for (let i = 0; i < 800_000; i++) keys.push(`"k${i}":1`);
    const text = `{${keys.join(',')}}`;
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const error = catchODataError(() => readJsonEntry(Buffer.from(text), products, demo));
      expect([error.code, error.position]).toEqual(['BODY_INVALID', text.indexOf(',"k10"')]);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('does not count members of arrays (a feed of many inline entries) or of strings', () => {
    const body = JSON.stringify({
      ID: 1,
      Name: 'a,b,c,d,e,f,g,h,i,j,k,l',
      Products: Array.from({ length: 50 }, () => ({ __metadata: { uri: 'Products(1)' } })),
    });
    expect(readJsonEntry(Buffer.from(body), targetOf(demoModel, 'Categories'), demo).bindings[0].targets).toHaveLength(50);
  });
});

describe('XML elements with more attributes or property elements than the model holds', () => {
  const properties = (count: number) => Array.from({ length: count }, (_, i) => `<d:ID${i}>1</d:ID${i}>`).join('');

  it('refuses an m:properties with more property elements than the largest type', () => {
    const error = catchODataError(() => readAtomEntry(Buffer.from(atomEntry(properties(11))), products, demo));
    expect([error.status, error.code, error.message]).toEqual([
      400,
      'BODY_INVALID',
      "The request body is invalid: the element 'properties' has more than 10 child elements (line 1), more than any type of the model holds.",
    ]);
  });

  it('refuses an element with more than 64 attributes, and one with 420,000 at the 65th, reading no further', () => {
    const attributes = (count: number) => Array.from({ length: count }, (_, i) => ` a${i}="x"`).join('');
    const few = `<entry ${ATOM_NAMESPACES}${attributes(50)}><content type="application/xml"><m:properties><d:ID>1</d:ID></m:properties></content></entry>`;
    expect(readAtomEntry(Buffer.from(few), products, demo).properties.get('ID')).toBe(1);
    const error = catchODataError(() => readAtomEntry(Buffer.from(`<entry ${ATOM_NAMESPACES}${attributes(65)}/>`), products, demo));
    expect([error.status, error.code, error.message]).toEqual([
      400,
      'BODY_INVALID',
      'The request body is invalid: an XML element has more than 64 attributes (line 1).',
    ]);
    // The namespace declarations count too: the 65th attribute is one of the first 65 written.
    const huge = `<entry ${ATOM_NAMESPACES}${attributes(420_000)}/>`;
    const refused = catchODataError(() => readAtomEntry(Buffer.from(huge), products, demo));
    expect(refused.code).toBe('BODY_INVALID');
    expect(refused.position).toBeGreaterThan(huge.indexOf(' a0='));
    expect(refused.position).toBeLessThan(huge.indexOf(' a65='));
  });

  it('bounds the members of a complex value in an XML property body too', () => {
    const address = { kind: 'Property', property: propertyOf(demoModel, 'Suppliers', 'Address') } as const;
    const body = `<d:Address xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices">${Array.from({ length: 11 }, () => '<d:Street>s</d:Street>').join('')}</d:Address>`;
    expect(catchODataError(() => readXmlProperty(Buffer.from(body), address, demo)).message).toContain("the element 'Address' has more than 10 child elements");
  });

  it('leaves inline feeds unbounded by the member bound (a deep insert of many entries)', () => {
    const entries = Array.from(
      { length: 30 },
      (_, i) => `<entry><content type="application/xml"><m:properties><d:ID>${i}</d:ID></m:properties></content></entry>`,
    ).join('');
    const body = `<entry ${ATOM_NAMESPACES}><link rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/Products" href="x"><m:inline><feed>${entries}</feed></m:inline></link><content type="application/xml"><m:properties><d:ID>1</d:ID></m:properties></content></entry>`;
    expect(readAtomEntry(Buffer.from(body), targetOf(demoModel, 'Categories'), demo).inline[0].entries).toHaveLength(30);
  });
});
