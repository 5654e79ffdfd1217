/** writeResult: which writer each result kind and format reaches. */
import { writeResult } from '../../lib/format';
import { ALL, context, demo, entitySet, text } from './support';

describe('writeResult', () => {
  it('writes counts as text and NoContent as nothing', () => {
    expect(writeResult({ kind: 'Count', count: 9 }, 'json', context())).toBe('9');
    expect(writeResult({ kind: 'NoContent' }, 'atom', context())).toBe('');
  });

  it('refuses results that arrive written (the service sends their bytes)', () => {
    expect(() => writeResult({ kind: 'Metadata', document: Buffer.from('<edmx:Edmx/>'), version: '1.0' }, 'xml', context())).toThrow(TypeError);
    expect(() => writeResult({ kind: 'RawValue', contentType: 'text/plain', body: 'x' }, 'xml', context())).toThrow(TypeError);
    expect(() => writeResult({ kind: 'Batch', contentType: 'multipart/mixed; boundary=b', body: Buffer.from('--b--') }, 'xml', context())).toThrow(TypeError);
  });

  it('writes the JSON service document from the default container', () => {
    expect(writeResult({ kind: 'ServiceDocument' }, 'json', context())).toBe('{"d":{"EntitySets":["Products","Categories","Suppliers"]}}');
  });

  it('writes properties and links as plain XML whether negotiated as atom or xml', () => {
    const link = { kind: 'Link', uri: 'http://localhost/odata/Categories(0)' } as const;
    expect(writeResult(link, 'atom', context())).toBe(writeResult(link, 'xml', context()));
  });

  it('reads the clock once per Atom document, for <updated>, and never for JSON', () => {
    const products = entitySet('Products');
    const feed = {
      kind: 'Feed',
      entitySet: products,
      entityType: products.entityType,
      selfPath: 'Products',
      title: 'Products',
      entities: demo.Products,
      count: undefined,
      nextLink: undefined,
      selectExpand: ALL,
    } as const;
    let reads = 0;
    const clock = (): Date => {
      reads++;
      return new Date('2026-11-22T14:30:05.123Z');
    };
    expect(text(writeResult(feed, 'atom', context('2.0', undefined, { now: clock })))).toContain('<updated>2026-11-22T14:30:05Z</updated>');
    expect(reads).toBe(1);
    text(writeResult(feed, 'json', context('2.0', undefined, { now: clock })));
    expect(reads).toBe(1);
  });
});
