/**
 * `$batch` end to end, changesets: mixed retrieves and changesets answered in order (JSON and Atom,
 * CRLF and LF), changeset rollback that leaves no trace, and Content-ID references.
 * The demo app runs on a real port, on Express 4 and 5, and every response is read byte for byte
 * (spec/helpers/batch-http.ts checks the framing, CRLF line ends and that each part's Content-Length
 * counts bytes); retrieve parts are compared with the same request sent on its own.
 */
import {
  type BatchOperation,
  type BatchPart,
  type EmbeddedResponse,
  type ResponsePart,
  changeset,
  changesetOf,
  jsonOf,
  operation,
  send,
  single,
  statuses,
} from '../helpers/batch-http';
import {
  ATOM_UTF8,
  ATOM_WRITE,
  JSON_HEADERS,
  JSON_TYPE,
  JSON_UTF8,
  JSON_WRITE,
  LINE_ENDS,
  RELATED,
  categoryAtom,
  jsonError,
  productAtom,
  productJson,
  useBatchDemo,
} from '../helpers/batch-demo';
import { EXPRESS_VERSIONS } from '../helpers/demo';

describe.each(EXPRESS_VERSIONS)('changesets of $batch on the demo service on %s', (_name, expressModule) => {
  const demo = useBatchDemo(expressModule);
  const { root, runBatch, getJson, snapshot, expectSameAsSingleRequest } = demo;

  describe('mixed retrieves and changesets', () => {
    const mixedJson = (): BatchPart[] => [
      operation('GET', 'Products(1)?$select=ID,Name', { headers: JSON_HEADERS }),
      changeset(
        'changeset_1',
        operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":3,"Name":"Snacks"}', contentId: '1' }),
        operation('POST', '$1/Products', { headers: JSON_WRITE, body: productJson(42, 'Pretzel'), contentId: '2' }),
        operation('MERGE', 'Products(0)', { headers: JSON_WRITE, body: '{"Price":"2.75"}' }),
      ),
      operation('GET', 'Categories(3)?$expand=Products', { headers: JSON_HEADERS }),
      operation('GET', 'Products(999)', { headers: JSON_HEADERS }),
    ];

    it.each(LINE_ENDS)('answers every part in JSON, in order, with %s line ends in the request', async (lineEnds) => {
      const parts = await runBatch(mixedJson(), lineEnds);
      expect(statuses(parts)).toEqual([200, [201, 201, 204], 200, 404]);

      const first = single(parts, 0);
      expect(first.mime).toEqual({ 'Content-Type': 'application/http', 'Content-Transfer-Encoding': 'binary' });
      expect(first.statusLine).toBe('HTTP/1.1 200 OK');
      expect(first.headers).toEqual({ DataServiceVersion: '2.0;', 'Content-Type': JSON_UTF8, 'Content-Length': String(first.body.length) });
      expect(jsonOf(first)).toEqual({ d: { __metadata: { uri: `${root()}Products(1)`, type: 'ODataDemo.Product' }, ID: 1, Name: 'Milk' } });

      const [category, product, merge] = changesetOf(parts, 1);
      expect(category.mime).toEqual({ 'Content-Type': 'application/http', 'Content-Transfer-Encoding': 'binary', 'Content-ID': '1' });
      expect(category.statusLine).toBe('HTTP/1.1 201 Created');
      expect(category.headers).toEqual({
        Location: `${root()}Categories(3)`,
        DataServiceVersion: '1.0;',
        'Content-Type': JSON_UTF8,
        'Content-Length': String(category.body.length),
      });
      expect(jsonOf(category)).toEqual({
        d: {
          __metadata: { uri: `${root()}Categories(3)`, type: 'ODataDemo.Category' },
          ID: 3,
          Name: 'Snacks',
          Products: { __deferred: { uri: `${root()}Categories(3)/Products` } },
        },
      });
      expect(product.mime['Content-ID']).toBe('2');
      expect(product.headers['Location']).toBe(`${root()}Products(42)`);
      expect(jsonOf(product)).toEqual({
        d: {
          __metadata: { uri: `${root()}Products(42)`, type: 'ODataDemo.Product' },
          ID: 42,
          Name: 'Pretzel',
          Description: null,
          ReleaseDate: '/Date(1767225600000)/',
          DiscontinuedDate: null,
          Rating: 4,
          Price: '1.5',
          Category: { __deferred: { uri: `${root()}Products(42)/Category` } },
          Supplier: { __deferred: { uri: `${root()}Products(42)/Supplier` } },
        },
      });
      expect(merge.mime).toEqual({ 'Content-Type': 'application/http', 'Content-Transfer-Encoding': 'binary' });
      expect(merge.statusLine).toBe('HTTP/1.1 204 No Content');
      expect(merge.headers).toEqual({ DataServiceVersion: '1.0;' });
      expect(merge.body.length).toBe(0);

      // The retrieve after the changeset sees its writes.
      await expectSameAsSingleRequest(single(parts, 2), 'Categories(3)?$expand=Products', { accept: JSON_TYPE });
      expect(jsonOf(single(parts, 2))).toMatchObject({ d: { ID: 3, Products: { results: [{ ID: 42, Name: 'Pretzel' }] } } });

      const missing = single(parts, 3);
      expect(missing.statusLine).toBe('HTTP/1.1 404 Not Found');
      expect(missing.headers).toEqual({ 'Content-Type': JSON_UTF8, DataServiceVersion: '1.0;', 'Content-Length': String(missing.body.length) });
      expect(jsonOf(missing)).toEqual(jsonError('ENTITY_NOT_FOUND', "No entity with the key (999) exists in 'Products'."));

      await expectSameAsSingleRequest(first, 'Products(1)?$select=ID,Name', { accept: JSON_TYPE });
      await expectSameAsSingleRequest(missing, 'Products(999)', { accept: JSON_TYPE });
      expect((await getJson('Products(0)')).json).toMatchObject({ d: { Name: 'Bread', Price: '2.75' } });
      expect((await getJson('Products(42)/Category')).json).toMatchObject({ d: { ID: 3, Name: 'Snacks' } });
    });

    it('gives the same answers for the same batch with CRLF and with bare LF line ends', async () => {
      const crlfUrl = demo.url();
      const crlf = await runBatch(mixedJson(), 'CRLF');
      await demo.restart();
      const lf = await runBatch(mixedJson(), 'LF');
      // The two servers differ only in their port: compare with the URL masked (Content-Length was checked against the bytes).
      const masked = (parts: ResponsePart[], url: string) => {
        const mask = (response: EmbeddedResponse) => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) if (name !== 'Content-Length') headers[name] = value.split(url).join('URL');
          return [response.mime, response.statusLine, headers, response.body.toString('utf8').split(url).join('URL')];
        };
        return parts.map((part) => ('changeset' in part ? part.changeset.map(mask) : mask(part)));
      };
      expect(statuses(lf)).toEqual([200, [201, 201, 204], 200, 404]);
      expect(masked(lf, demo.url())).toEqual(masked(crlf, crlfUrl));
    });

    it('answers Atom parts with Atom bodies, and binds Atom links to Content-IDs', async () => {
      const xml = { Accept: 'application/atom+xml' };
      const parts = await runBatch([
        operation('GET', 'Products(1)', { headers: xml }),
        changeset(
          'changeset_atom',
          operation('POST', 'Categories', { headers: ATOM_WRITE, body: categoryAtom(3, 'Snacks'), contentId: '1' }),
          operation('POST', 'Products', {
            headers: ATOM_WRITE,
            body: productAtom(42, 'Pretzel', `<link rel="${RELATED}Category" type="application/atom+xml;type=entry" href="$1"/>`),
            contentId: '2',
          }),
          operation('PUT', '$2/$links/Supplier', {
            headers: { 'Content-Type': 'application/xml' },
            body: `<uri xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">${root()}Suppliers(1)</uri>`,
          }),
        ),
        operation('GET', 'Products(42)?$expand=Category,Supplier', { headers: xml }),
        operation('GET', 'Products(999)', { headers: xml }),
      ]);
      expect(statuses(parts)).toEqual([200, [201, 201, 204], 200, 404]);
      await expectSameAsSingleRequest(single(parts, 0), 'Products(1)', { accept: 'application/atom+xml' });
      expect(single(parts, 0).headers['Content-Type']).toBe(ATOM_UTF8);

      const [category, product, link] = changesetOf(parts, 1);
      expect(category.headers).toEqual({
        Location: `${root()}Categories(3)`,
        DataServiceVersion: '1.0;',
        'Content-Type': ATOM_UTF8,
        'Content-Length': String(category.body.length),
      });
      // A create answers the entry exactly as a later GET of it does.
      expect(category.body.toString('utf8')).toBe((await send(`${root()}Categories(3)`, 'GET')).body.toString('utf8'));
      expect(category.body.toString('utf8')).toContain(`<id>${root()}Categories(3)</id>`);
      expect(product.headers['Location']).toBe(`${root()}Products(42)`);
      expect(product.body.toString('utf8')).toContain('<title type="text">Pretzel</title>');
      expect(link.headers).toEqual({ DataServiceVersion: '1.0;' });

      const read = single(parts, 2);
      await expectSameAsSingleRequest(read, 'Products(42)?$expand=Category,Supplier', { accept: 'application/atom+xml' });
      expect(read.body.toString('utf8')).toContain('<d:ID m:type="Edm.Int32">3</d:ID>');
      expect(read.body.toString('utf8')).toContain('<title type="text">Tokyo Traders</title>');

      const missing = single(parts, 3);
      expect(missing.headers).toEqual({
        'Content-Type': 'application/xml;charset=utf-8',
        DataServiceVersion: '1.0;',
        'Content-Length': String(missing.body.length),
      });
      expect(missing.body.toString('utf8')).toBe(
        '<?xml version="1.0" encoding="utf-8" standalone="yes"?><m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><m:code>ENTITY_NOT_FOUND</m:code>' +
          '<m:message xml:lang="en-US">No entity with the key (999) exists in \'Products\'.</m:message></m:error>',
      );
      await expectSameAsSingleRequest(missing, 'Products(999)', { accept: 'application/atom+xml' });
    });
  });

  describe('changeset rollback', () => {
    it('leaves no trace of a changeset whose later request fails (duplicate key), and answers it with one response', async () => {
      const before = await snapshot();
      const parts = await runBatch([
        operation('GET', 'Products(1)?$select=Name', { headers: JSON_HEADERS }),
        changeset(
          'changeset_1',
          operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":3,"Name":"Snacks"}', contentId: '1' }),
          operation('MERGE', 'Products(1)', { headers: JSON_WRITE, body: '{"Name":"Changed"}', contentId: '2' }),
          operation('POST', '$1/Products', { headers: JSON_WRITE, body: productJson(42, 'Pretzel'), contentId: '3' }),
          operation('DELETE', 'Products(8)', { contentId: '4' }),
          operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":0,"Name":"Duplicate"}', contentId: '5' }),
          operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":6,"Name":"Never run"}', contentId: '6' }),
        ),
        operation('GET', 'Products(1)?$select=Name', { headers: JSON_HEADERS }),
        operation('GET', 'Categories(3)', { headers: JSON_HEADERS }),
      ]);
      expect(statuses(parts)).toEqual([200, 409, 200, 404]);
      const failed = single(parts, 1);
      expect(failed.mime).toEqual({ 'Content-Type': 'application/http', 'Content-Transfer-Encoding': 'binary', 'Content-ID': '5' });
      expect(failed.statusLine).toBe('HTTP/1.1 409 Conflict');
      expect(failed.headers).toEqual({ 'Content-Type': JSON_UTF8, DataServiceVersion: '1.0;', 'Content-Length': String(failed.body.length) });
      expect(jsonOf(failed)).toEqual(jsonError('ENTITY_EXISTS', "An entity with the key (0) already exists in 'Categories'."));
      const unchanged = { d: { __metadata: { uri: `${root()}Products(1)`, type: 'ODataDemo.Product' }, Name: 'Milk' } };
      expect(jsonOf(single(parts, 0))).toEqual(unchanged);
      expect(jsonOf(single(parts, 2))).toEqual(unchanged);
      expect(jsonOf(single(parts, 3))).toEqual(jsonError('ENTITY_NOT_FOUND', "No entity with the key (3) exists in 'Categories'."));
      expect(await snapshot()).toEqual(before);
      expect((await getJson('Products(42)')).status).toBe(404);
      expect((await getJson('Products(8)')).status).toBe(200);
      expect((await getJson('Categories(6)')).status).toBe(404);
    });

    it('leaves no trace of a changeset whose later request has a stale If-Match', async () => {
      const supplier = await getJson('Suppliers(0)');
      expect(supplier.headers['etag']).toBe('W/"0"');
      const before = await snapshot();
      const parts = await runBatch([
        changeset(
          'changeset_etag',
          operation('MERGE', 'Suppliers(0)', { headers: { ...JSON_WRITE, 'If-Match': 'W/"0"' }, body: '{"Name":"Renamed","Concurrency":1}' }),
          operation('PUT', 'Products(0)/$links/Supplier', { headers: JSON_WRITE, body: `{"uri":"${root()}Suppliers(0)"}` }),
          operation('DELETE', 'Products(7)'),
          operation('MERGE', 'Suppliers(1)', { headers: { ...JSON_WRITE, 'If-Match': 'W/"41"' }, body: '{"Name":"Stale"}' }),
        ),
        operation('GET', 'Suppliers(0)', { headers: JSON_HEADERS }),
      ]);
      expect(statuses(parts)).toEqual([412, 200]);
      const failed = single(parts, 0);
      expect(failed.mime).toEqual({ 'Content-Type': 'application/http', 'Content-Transfer-Encoding': 'binary' });
      expect(failed.statusLine).toBe('HTTP/1.1 412 Precondition Failed');
      expect(jsonOf(failed)).toEqual(jsonError('PRECONDITION_FAILED', 'The entity tag given in If-Match does not match the current entity tag.'));
      await expectSameAsSingleRequest(single(parts, 1), 'Suppliers(0)', { accept: JSON_TYPE });
      expect(single(parts, 1).headers['ETag']).toBe('W/"0"');
      expect(await snapshot()).toEqual(before);
    });

    it('commits a changeset with a fresh If-Match and answers the new ETag', async () => {
      const parts = await runBatch([
        changeset('changeset_etag', operation('MERGE', 'Suppliers(1)', { headers: { ...JSON_WRITE, 'If-Match': 'W/"0"' }, body: '{"Concurrency":7}' })),
        operation('GET', 'Suppliers(1)?$select=Concurrency', { headers: JSON_HEADERS }),
      ]);
      expect(statuses(parts)).toEqual([[204], 200]);
      // MemoryProvider owns the concurrency token: it moves on with every write, whatever the body says.
      expect(changesetOf(parts, 0)[0].headers).toEqual({ DataServiceVersion: '1.0;', ETag: 'W/"1"' });
      expect(single(parts, 1).headers['ETag']).toBe('W/"1"');
      expect((await getJson('Suppliers(1)')).headers['etag']).toBe('W/"1"');
    });

    it('runs a write outside a changeset as a changeset of one: it fails alone and leaves nothing behind', async () => {
      const before = await snapshot();
      const parts = await runBatch([
        operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":1,"Name":"Duplicate","Products":[' + productJson(42, 'Deep') + ']}' }),
        operation('GET', 'Categories/$count'),
      ]);
      expect(statuses(parts)).toEqual([409, 200]);
      expect(single(parts, 1).body.toString('utf8')).toBe('3');
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('Content-ID references', () => {
    const SUPPLIER = JSON.stringify({
      ID: 2,
      Name: 'Fresh Farms',
      Address: { Street: '1 Main St', City: 'Walldorf', State: null, ZipCode: '69190', Country: 'Germany' },
      Concurrency: 0,
    });
    type Placement = 'mime' | 'request';
    const withId = (placement: Placement, id: string, op: BatchOperation): BatchOperation =>
      placement === 'mime' ? { ...op, mime: { 'Content-Id': id } } : { ...op, headers: { ...op.headers, 'Content-ID': id } };

    it.each<[string, Placement, [string, string, string, string]]>([
      ['numbers in the MIME part header', 'mime', ['1', '2', '3', '4']],
      [
        'UUIDs in the MIME part header (SAP Cloud SDK)',
        'mime',
        [
          '2cbf3f2b-0b1e-4a6a-9d3e-0c1e5c1d8a10',
          '7a4e1c55-93b2-4a51-8f0e-6a1d2c3b4e5f',
          '9f1d2e3c-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
          '0b6a7c8d-1e2f-4a3b-9c4d-5e6f7a8b9c0d',
        ],
      ],
      ['SAPUI5 ids in the embedded request headers', 'request', ['id-1700000000000-1', 'id-1700000000000-2', 'id-1700000000000-3', 'id-1700000000000-4']],
    ])('chains creates, $links and body bindings through %s', async (_case, placement, [a, b, c, d]) => {
      const parts = await runBatch([
        changeset(
          'changeset_ids',
          withId(placement, a, operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":3,"Name":"Snacks"}' })),
          withId(placement, b, operation('POST', `$${a}/Products`, { headers: JSON_WRITE, body: productJson(42, 'Pretzel') })),
          withId(placement, c, operation('POST', 'Suppliers', { headers: JSON_WRITE, body: SUPPLIER })),
          operation('PUT', `$${b}/$links/Supplier`, { headers: JSON_WRITE, body: `{"uri":"$${c}"}` }),
          withId(
            placement,
            d,
            operation('POST', 'Products', {
              headers: JSON_WRITE,
              body: productJson(43, 'Oat', { Category: { __metadata: { uri: `$${a}` } }, Supplier: { __metadata: { uri: `$${c}` } } }),
            }),
          ),
          operation('MERGE', `$${b}`, { headers: JSON_WRITE, body: '{"Rating":5}' }),
          operation('DELETE', `$${d}/$links/Supplier`),
        ),
        operation('GET', 'Categories(3)/Products?$select=ID&$orderby=ID', { headers: JSON_HEADERS }),
      ]);
      expect(statuses(parts)).toEqual([[201, 201, 201, 204, 201, 204, 204], 200]);
      const responses = changesetOf(parts, 0);
      // The Content-ID is echoed where the request had it (MS-ODATA §2.2.7.6.6): a MIME header, or
      // a header of the embedded response, never both for one placement.
      const echoed = (response: EmbeddedResponse) => (placement === 'mime' ? response.mime['Content-ID'] : response.headers['Content-ID']);
      const elsewhere = (response: EmbeddedResponse) => (placement === 'mime' ? response.headers['Content-ID'] : response.mime['Content-ID']);
      expect(responses.map(elsewhere)).toEqual(responses.map(() => undefined));
      expect(responses.map((response) => [echoed(response), response.headers['Location']])).toEqual([
        [a, `${root()}Categories(3)`],
        [b, `${root()}Products(42)`],
        [c, `${root()}Suppliers(2)`],
        [undefined, undefined],
        [d, `${root()}Products(43)`],
        [undefined, undefined],
        [undefined, undefined],
      ]);
      expect(jsonOf(single(parts, 1))).toEqual({
        d: {
          results: [
            { __metadata: { uri: `${root()}Products(42)`, type: 'ODataDemo.Product' }, ID: 42 },
            { __metadata: { uri: `${root()}Products(43)`, type: 'ODataDemo.Product' }, ID: 43 },
          ],
        },
      });

      const pretzel = (await getJson('Products(42)?$expand=Category,Supplier&$select=Rating,Category/ID,Supplier/ID')).json;
      expect(pretzel).toMatchObject({ d: { Rating: 5, Category: { ID: 3 }, Supplier: { ID: 2 } } });
      const oat = (await getJson('Products(43)?$expand=Category,Supplier&$select=Name,Category/ID,Supplier')).json;
      expect(oat).toMatchObject({ d: { Name: 'Oat', Category: { ID: 3 }, Supplier: null } });
      expect((await getJson('Suppliers(2)/Products?$select=ID')).json).toMatchObject({ d: { results: [{ ID: 42 }] } });
    });

    it('refuses a reference to another changeset or from a retrieve, rolling back its own changeset', async () => {
      const parts = await runBatch([
        changeset('changeset_1', operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":3,"Name":"Snacks"}', contentId: '1' })),
        changeset(
          'changeset_2',
          operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":4,"Name":"Sweets"}', contentId: '2' }),
          operation('POST', '$1/Products', { headers: JSON_WRITE, body: productJson(42, 'Pretzel'), contentId: '3' }),
        ),
        operation('GET', '$1', { headers: JSON_HEADERS }),
      ]);
      expect(statuses(parts)).toEqual([[201], 400, 400]);
      expect(single(parts, 1).mime['Content-ID']).toBe('3');
      expect(jsonOf(single(parts, 1))).toEqual(
        jsonError(
          'BATCH_CONTENT_ID',
          "part 2, operation 2: '$1' does not name an earlier request of this changeset (MS-ODATA §2.2.7.6.1.1: references work only inside one changeset)",
        ),
      );
      expect(jsonOf(single(parts, 2))).toEqual(
        jsonError(
          'BATCH_CONTENT_ID',
          "part 3: '$1' does not name an earlier request of this changeset (MS-ODATA §2.2.7.6.1.1: references work only inside one changeset)",
        ),
      );
      expect((await getJson('Categories(3)')).status).toBe(200);
      expect((await getJson('Categories(4)')).status).toBe(404);
    });
  });
});
