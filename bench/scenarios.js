'use strict';
/**
 * The benchmark scenarios (issue 7): the request each sends, and the check every server's answer
 * must pass before it is timed, so that a fast wrong answer cannot count. Checks compare against
 * the expected data computed here from the same deterministic data set, not against the other
 * server. A check throws an Error whose message names the scenario fact that failed.
 */
const { buildData } = require('./data');

const data = buildData();
const productById = new Map(data.Products.map((p) => [p.ID, p]));
const categoryById = new Map(data.Categories.map((c) => [c.ID, c]));

// Keys of POSTed products: unique across the whole run, Int32, far above the seeded 0..999.
let nextProductId = 1000000;
const takeProductId = () => nextProductId++;

const JSON_CT = 'application/json;charset=utf-8';
const ATOM_CT = 'application/atom+xml;charset=utf-8';
const BATCH_PART_IDS = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
const BATCH_BOUNDARY = 'batch_bench-7f3c';

/** The multipart body of S7: 10 retrieve parts, JSON by Accept (MS-ODATA §2.2.7.6). */
const batchBody =
  BATCH_PART_IDS.map(
    (id) =>
      `--${BATCH_BOUNDARY}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n` +
      `GET Products(${id}) HTTP/1.1\r\nAccept: application/json\r\nMaxDataServiceVersion: 2.0\r\n\r\n\r\n`,
  ).join('') + `--${BATCH_BOUNDARY}--\r\n`;

/** The JSON body of one new product (S6). */
function newProductBody(id) {
  return JSON.stringify({
    ID: id,
    Name: `Bench product ${id}`,
    Description: 'Created by the benchmark',
    ReleaseDate: `/Date(${Date.UTC(2020, 0, 1) + (id % 1000) * 86400000})/`,
    DiscontinuedDate: null,
    Rating: id % 6,
    Price: `${id % 100}.5`,
  });
}

// ---- expected values ----

function fail(message) {
  throw new Error(message);
}

function expectEqual(actual, expected, what) {
  if (actual !== expected) fail(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

function header(response, name) {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function expectHead(response, status, contentType, version) {
  expectEqual(response.status, status, 'status');
  expectEqual(header(response, 'content-type'), contentType, 'Content-Type');
  if (version !== undefined) expectEqual(header(response, 'dataserviceversion'), version, 'DataServiceVersion');
}

function parseJson(response) {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch (error) {
    return fail(`body is not JSON (${error.message}): ${response.body.toString('utf8', 0, 200)}`);
  }
}

const msDate = (text) => (text === null ? null : `/Date(${Date.parse(text)})/`);

/** One verbose-JSON Product entry against the seeded (or POSTed) values, every property. */
function checkJsonProduct(entry, expected, root, { expandCategory = false } = {}) {
  const what = `Products(${expected.ID})`;
  if (entry === null || typeof entry !== 'object') fail(`${what}: entry is not an object`);
  const uri = `${root}Products(${expected.ID})`;
  expectEqual(entry.__metadata && entry.__metadata.uri, uri, `${what} __metadata.uri`);
  expectEqual(entry.__metadata.type, 'ODataDemo.Product', `${what} __metadata.type`);
  for (const name of ['ID', 'Name', 'Description', 'Rating', 'Price']) expectEqual(entry[name], expected[name], `${what} ${name}`);
  expectEqual(entry.ReleaseDate, msDate(expected.ReleaseDate), `${what} ReleaseDate`);
  expectEqual(entry.DiscontinuedDate, msDate(expected.DiscontinuedDate), `${what} DiscontinuedDate`);
  expectEqual(entry.Supplier && entry.Supplier.__deferred && entry.Supplier.__deferred.uri, `${uri}/Supplier`, `${what} Supplier.__deferred.uri`);
  if (expandCategory) {
    const category = categoryById.get(expected.CategoryID);
    const inline = entry.Category;
    if (!inline || !inline.__metadata) fail(`${what}: Category is not expanded inline`);
    expectEqual(inline.__metadata.uri, `${root}Categories(${category.ID})`, `${what} Category __metadata.uri`);
    expectEqual(inline.ID, category.ID, `${what} Category.ID`);
    expectEqual(inline.Name, category.Name, `${what} Category.Name`);
  } else {
    expectEqual(entry.Category && entry.Category.__deferred && entry.Category.__deferred.uri, `${uri}/Category`, `${what} Category.__deferred.uri`);
  }
}

function checkJsonFeed(entries, expectedIds, root, options) {
  if (!Array.isArray(entries)) fail(`feed is not an array: ${JSON.stringify(entries).slice(0, 120)}`);
  expectEqual(entries.length, expectedIds.length, 'number of entries');
  entries.forEach((entry, index) => {
    expectEqual(entry && entry.ID, expectedIds[index], `entry ${index} ID (order)`);
    checkJsonProduct(entry, productById.get(expectedIds[index]), root, options);
  });
}

const range = (from, count) => Array.from({ length: count }, (_, i) => from + i);
const xmlUnescape = (text) => text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&amp;', '&');

function checkAtomFeed(response, expectedIds, root) {
  const text = response.body.toString('utf8');
  if (!text.startsWith('<?xml')) fail('Atom body does not start with an XML declaration');
  if (!text.includes('<feed ') || !text.trimEnd().endsWith('</feed>')) fail('Atom body is not a whole <feed>');
  const entries = text.split('<entry>').slice(1);
  expectEqual(entries.length, expectedIds.length, 'number of <entry> elements');
  entries.forEach((entry, index) => {
    const p = productById.get(expectedIds[index]);
    const field = (pattern) => {
      const match = pattern.exec(entry);
      return match === null ? undefined : xmlUnescape(match[1]);
    };
    expectEqual(field(/<id>([^<]*)<\/id>/), `${root}Products(${p.ID})`, `entry ${index} <id>`);
    expectEqual(field(/<title type="text">([^<]*)<\/title>/), p.Name, `entry ${index} <title> (Name)`);
    expectEqual(field(/<summary type="text">([^<]*)<\/summary>/), p.Description, `entry ${index} <summary> (Description)`);
    expectEqual(field(/<d:Rating[^>]*>([^<]*)<\/d:Rating>/), String(p.Rating), `entry ${index} d:Rating`);
    expectEqual(field(/<d:Price[^>]*>([^<]*)<\/d:Price>/), p.Price, `entry ${index} d:Price`);
    expectEqual(field(/<d:ReleaseDate[^>]*>([^<]*)<\/d:ReleaseDate>/), p.ReleaseDate.replace(/Z$/, ''), `entry ${index} d:ReleaseDate`);
  });
}

/** Split a multipart/mixed body into its parts (RFC 2046 §5.1.1), for the S7 check. */
function multipartParts(response) {
  const contentType = header(response, 'content-type') || '';
  const match = /^multipart\/mixed;\s*boundary=("?)([^";]+)\1$/.exec(contentType);
  if (match === null) fail(`Content-Type is not multipart/mixed with a boundary: ${contentType}`);
  const delimiter = `--${match[2]}`;
  const text = response.body.toString('latin1');
  const pieces = text.split(delimiter);
  const close = pieces[pieces.length - 1];
  if (!close.startsWith('--')) fail('batch response has no close delimiter');
  return pieces.slice(1, -1).map((piece) => piece.replace(/^\r\n/, '').replace(/\r\n$/, ''));
}

/** One application/http part: MIME headers, status line, headers, body. */
function embeddedResponse(part, index) {
  const mimeEnd = part.indexOf('\r\n\r\n');
  if (!/content-type:\s*application\/http/i.test(part.slice(0, mimeEnd))) fail(`part ${index}: MIME type is not application/http`);
  const message = part.slice(mimeEnd + 4);
  const headEnd = message.indexOf('\r\n\r\n');
  const lines = message.slice(0, headEnd).split('\r\n');
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(lines[0]);
  if (status === null) fail(`part ${index}: no status line`);
  const headers = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = Buffer.from(message.slice(headEnd + 4), 'latin1');
  return { status: Number(status[1]), headers, body };
}

// ---- the scenarios ----

/** S3's expected keys: the filter, ordinal order by Name then key, the first 50. */
const s3Ids = data.Products.filter((p) => Number(p.Price) > 20 && p.Rating >= 3)
  .sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : a.ID - b.ID))
  .slice(0, 50)
  .map((p) => p.ID);

const JSON_ACCEPT = { accept: 'application/json' };

/**
 * Each scenario: `id`, `title`, the request (`method`, `path`, `headers`, `body` or
 * `makeBody(id)`), `check(response, ctx)` (ctx: `{ root, fetch }`), and `freshPerRound` for
 * scenarios that grow server state (S6 restarts both servers before each round, so memory stays bounded).
 */
const SCENARIOS = [
  {
    id: 'S1',
    title: 'GET Products?$top=100 (JSON)',
    method: 'GET',
    path: '/odata/Products?$top=100&$format=json',
    check(response, { root }) {
      // A JSON collection is written in the 2.0 shape whenever the client accepts 2.0.
      expectHead(response, 200, JSON_CT, '2.0;');
      checkJsonFeed(parseJson(response).d.results, range(0, 100), root);
    },
  },
  {
    id: 'S2',
    title: 'GET Products(7) (JSON)',
    method: 'GET',
    path: '/odata/Products(7)',
    headers: JSON_ACCEPT,
    check(response, { root }) {
      expectHead(response, 200, JSON_CT, '1.0;');
      checkJsonProduct(parseJson(response).d, productById.get(7), root);
    },
  },
  {
    id: 'S3',
    title: 'GET Products?$filter=Price gt 20 and Rating ge 3&$orderby=Name&$top=50 (JSON)',
    method: 'GET',
    path: '/odata/Products?$filter=Price%20gt%2020%20and%20Rating%20ge%203&$orderby=Name&$top=50&$format=json',
    check(response, { root }) {
      // A JSON collection is written in the 2.0 shape whenever the client accepts 2.0.
      expectHead(response, 200, JSON_CT, '2.0;');
      checkJsonFeed(parseJson(response).d.results, s3Ids, root);
    },
  },
  {
    id: 'S4',
    title: 'GET Products?$expand=Category&$top=50 (JSON)',
    method: 'GET',
    path: '/odata/Products?$expand=Category&$top=50&$format=json',
    check(response, { root }) {
      // A JSON collection is written in the 2.0 shape whenever the client accepts 2.0.
      expectHead(response, 200, JSON_CT, '2.0;');
      checkJsonFeed(parseJson(response).d.results, range(0, 50), root, { expandCategory: true });
    },
  },
  {
    id: 'S5',
    title: 'GET Products?$top=100 (Atom)',
    method: 'GET',
    path: '/odata/Products?$top=100',
    headers: { accept: 'application/atom+xml' },
    check(response, { root }) {
      // Feed customization (FC_KeepInContent=false) needs 2.0 (MS-ODATA §2.2.5.3).
      expectHead(response, 200, ATOM_CT, '2.0;');
      checkAtomFeed(response, range(0, 100), root);
    },
  },
  {
    id: 'S6',
    title: 'POST Products (JSON, a new key per request)',
    method: 'POST',
    path: '/odata/Products',
    headers: { ...JSON_ACCEPT, 'content-type': 'application/json' },
    makeBody: newProductBody,
    takeId: takeProductId,
    freshPerRound: true,
    async check(response, { root, fetch, id }) {
      expectHead(response, 201, JSON_CT, '1.0;');
      expectEqual(header(response, 'location'), `${root}Products(${id})`, 'Location');
      const sent = JSON.parse(newProductBody(id));
      const entry = parseJson(response).d;
      for (const name of ['ID', 'Name', 'Description', 'Rating', 'Price', 'ReleaseDate', 'DiscontinuedDate']) {
        expectEqual(entry && entry[name], sent[name], `created entry ${name}`);
      }
      expectEqual(entry.__metadata && entry.__metadata.uri, `${root}Products(${id})`, 'created entry __metadata.uri');
      // The write must have happened: read the new entry back.
      const readBack = await fetch({ method: 'GET', path: `/odata/Products(${id})`, headers: JSON_ACCEPT });
      expectHead(readBack, 200, JSON_CT, '1.0;');
      expectEqual(parseJson(readBack).d.Name, sent.Name, 'read-back Name');
    },
  },
  {
    id: 'S7',
    title: 'POST $batch with 10 GET parts (JSON entries)',
    method: 'POST',
    path: '/odata/$batch',
    headers: { 'content-type': `multipart/mixed; boundary=${BATCH_BOUNDARY}`, maxdataserviceversion: '2.0' },
    body: batchBody,
    check(response, { root }) {
      expectEqual(response.status, 202, 'status');
      expectEqual(header(response, 'dataserviceversion'), '1.0;', 'DataServiceVersion');
      const parts = multipartParts(response);
      expectEqual(parts.length, BATCH_PART_IDS.length, 'number of batch response parts');
      parts.forEach((part, index) => {
        const embedded = embeddedResponse(part, index);
        expectEqual(embedded.status, 200, `part ${index} status`);
        expectEqual(embedded.headers['content-type'], JSON_CT, `part ${index} Content-Type`);
        expectEqual(embedded.headers['content-length'], String(embedded.body.length), `part ${index} Content-Length`);
        checkJsonProduct(parseJson(embedded).d, productById.get(BATCH_PART_IDS[index]), root);
      });
    },
  },
  {
    id: 'S8',
    title: 'GET Products?$inlinecount=allpages&$top=10 (JSON)',
    method: 'GET',
    path: '/odata/Products?$inlinecount=allpages&$top=10&$format=json',
    check(response, { root }) {
      expectHead(response, 200, JSON_CT, '2.0;');
      const d = parseJson(response).d;
      expectEqual(d && d.__count, String(data.Products.length), '__count');
      checkJsonFeed(d.results, range(0, 10), root);
    },
  },
  {
    id: 'S9',
    title: 'GET $metadata',
    method: 'GET',
    path: '/odata/$metadata',
    check(response) {
      expectEqual(response.status, 200, 'status');
      expectEqual(header(response, 'content-type'), 'application/xml;charset=utf-8', 'Content-Type');
      const text = response.body.toString('utf8');
      for (const needle of [
        '<edmx:Edmx Version="1.0"',
        'm:DataServiceVersion="2.0"',
        '<EntityType Name="Product">',
        '<EntityType Name="Category">',
        '<EntityType Name="Supplier">',
        '<ComplexType Name="Address">',
        '<EntitySet Name="Products" EntityType="ODataDemo.Product"',
        '<AssociationSet Name="Products_Supplier_Suppliers"',
        '<FunctionImport Name="GetProductsByRating"',
      ]) {
        if (!text.includes(needle)) fail(`$metadata lacks ${needle}`);
      }
    },
  },
  {
    id: 'L',
    title: 'GET Products (all 1,000 entries, JSON)',
    method: 'GET',
    path: '/odata/Products?$format=json',
    check(response, { root }) {
      // A JSON collection is written in the 2.0 shape whenever the client accepts 2.0.
      expectHead(response, 200, JSON_CT, '2.0;');
      checkJsonFeed(parseJson(response).d.results, range(0, data.Products.length), root);
    },
  },
];

/**
 * The same answer with the run-specific parts blanked (port, Atom `updated`, multipart
 * boundaries), to compare both servers byte for byte.
 */
function normalizeBody(body) {
  return body
    .toString('latin1')
    .replace(/127\.0\.0\.1:\d+/g, 'HOST')
    .replace(/<updated>[^<]*<\/updated>/g, '<updated/>')
    .replace(/batch_[0-9a-f-]{36}/g, 'batch_BOUNDARY')
    .replace(/changesetresponse_[0-9a-f-]{36}/g, 'changesetresponse_BOUNDARY');
}

module.exports = { SCENARIOS, normalizeBody, takeProductId, newProductBody, header };
