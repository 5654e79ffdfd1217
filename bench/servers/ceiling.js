'use strict';
/**
 * "ceiling": a bare Express handler that answers exactly the benchmark's scenarios with the same
 * V2 payloads as the real service, computed per request with the least possible work: filter,
 * sort and slice over plain arrays, JSON.stringify, string templates for Atom, a minimal
 * multipart splitter for $batch. It is what Express allows on this machine, not an OData server:
 * anything outside the scenarios gets a 400.
 */
const crypto = require('crypto');
const querystring = require('querystring');
const express = require('express');
const { buildData, readMetadata } = require('../data');
const { serveChild } = require('./child');

const data = buildData();
const toMillis = (text) => (text === null ? null : Date.parse(text));
// Stored in the form the answers need; `priceNumber` is for the one $filter the benchmark sends.
const products = data.Products.map((p) => ({
  ID: p.ID,
  Name: p.Name,
  Description: p.Description,
  ReleaseDate: toMillis(p.ReleaseDate),
  DiscontinuedDate: toMillis(p.DiscontinuedDate),
  Rating: p.Rating,
  Price: p.Price,
  priceNumber: Number(p.Price),
  CategoryID: p.CategoryID,
  SupplierID: p.SupplierID,
}));
const productsById = new Map(products.map((p) => [p.ID, p]));
const categories = data.Categories;
// The demo's metadata.xml, less the redundant xmlns:m on Schema (already declared on
// edmx:DataServices), which ours does not repeat: the two answers then compare byte for byte.
const metadata = Buffer.from(readMetadata().replace(' xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" xmlns="http://schemas.microsoft.com/ado/2007/05/edm">', ' xmlns="http://schemas.microsoft.com/ado/2007/05/edm">'), 'utf8');
// An ETag of the bytes, computed once, as ours sends with $metadata.
const metadataETag = `"${crypto.createHash('sha1').update(metadata).digest('base64url')}"`;

// The only $filter and $orderby the scenarios send (S3); the ceiling does not parse expressions.
const S3_FILTER = 'Price gt 20 and Rating ge 3';
const s3Predicate = (p) => p.priceNumber > 20 && p.Rating >= 3;
// Ordinal (code unit) order, then the key: what a V2 server's $orderby plus key tie-breaker gives.
const byName = (a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : a.ID - b.ID);

const JSON_TYPE = 'application/json;charset=utf-8';
const ATOM_TYPE = 'application/atom+xml;charset=utf-8';
const NS = 'http://schemas.microsoft.com/ado/2007/08/dataservices';

// ---- JSON (verbose, MS-ODATA §2.2.6.3) ----
// A template per entry with JSON.stringify for the strings: cheaper than building objects for
// JSON.stringify, and it writes DateTime as WCF does ("\/Date(ms)\/"), which JSON.stringify cannot.

const str = JSON.stringify;
const msDate = (ms) => (ms === null ? 'null' : `"\\/Date(${ms})\\/"`);

function jsonProduct(root, p, expandCategory) {
  const uri = `${root}Products(${p.ID})`;
  let category;
  if (expandCategory) {
    const c = categories[p.CategoryID];
    const curi = `${root}Categories(${c.ID})`;
    category = `{"__metadata":{"uri":${str(curi)},"type":"ODataDemo.Category"},"ID":${c.ID},"Name":${str(c.Name)},"Products":{"__deferred":{"uri":${str(`${curi}/Products`)}}}}`;
  } else {
    category = `{"__deferred":{"uri":${str(`${uri}/Category`)}}}`;
  }
  return (
    `{"__metadata":{"uri":${str(uri)},"type":"ODataDemo.Product"},"ID":${p.ID},"Name":${str(p.Name)},"Description":${str(p.Description)},` +
    `"ReleaseDate":${msDate(p.ReleaseDate)},"DiscontinuedDate":${msDate(p.DiscontinuedDate)},"Rating":${p.Rating},"Price":${str(p.Price)},` +
    `"Category":${category},"Supplier":{"__deferred":{"uri":${str(`${uri}/Supplier`)}}}}`
  );
}

function jsonProducts(root, list, expandCategory) {
  let text = '[';
  for (let i = 0; i < list.length; i++) text += (i === 0 ? '' : ',') + jsonProduct(root, list[i], expandCategory);
  return `${text}]`;
}

// ---- Atom (RFC 4287 + MS-ODATA §2.2.6.2) ----

const XML_SPECIAL = /[&<>]/;
const xmlText = (text) => (XML_SPECIAL.test(text) ? text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;') : text);
const atomDate = (ms) => new Date(ms).toISOString().slice(0, 19);

function atomProduct(root, p, updated) {
  const key = `Products(${p.ID})`;
  const discontinued =
    p.DiscontinuedDate === null
      ? '<d:DiscontinuedDate m:type="Edm.DateTime" m:null="true"/>'
      : `<d:DiscontinuedDate m:type="Edm.DateTime">${atomDate(p.DiscontinuedDate)}</d:DiscontinuedDate>`;
  return (
    `<entry><id>${root}${key}</id><title type="text">${xmlText(p.Name)}</title><summary type="text">${xmlText(p.Description)}</summary>` +
    `<updated>${updated}</updated><author><name/></author><link rel="edit" title="Product" href="${key}"/>` +
    `<link rel="${NS}/related/Category" type="application/atom+xml;type=entry" title="Category" href="${key}/Category"/>` +
    `<link rel="${NS}/related/Supplier" type="application/atom+xml;type=entry" title="Supplier" href="${key}/Supplier"/>` +
    `<category term="ODataDemo.Product" scheme="${NS}/scheme"/><content type="application/xml"><m:properties>` +
    `<d:ID m:type="Edm.Int32">${p.ID}</d:ID><d:ReleaseDate m:type="Edm.DateTime">${atomDate(p.ReleaseDate)}</d:ReleaseDate>${discontinued}` +
    `<d:Rating m:type="Edm.Int32">${p.Rating}</d:Rating><d:Price m:type="Edm.Decimal">${p.Price}</d:Price></m:properties></content></entry>`
  );
}

function atomFeed(root, list) {
  const updated = new Date().toISOString().slice(0, 19) + 'Z';
  let body =
    `<?xml version="1.0" encoding="utf-8" standalone="yes"?><feed xml:base="${root}" xmlns:d="${NS}" xmlns:m="${NS}/metadata" xmlns="http://www.w3.org/2005/Atom">` +
    `<title type="text">Products</title><id>${root}Products</id><updated>${updated}</updated><link rel="self" title="Products" href="Products"/>`;
  for (const p of list) body += atomProduct(root, p, updated);
  return body + '</feed>';
}

// ---- the answers ----

const answer = (status, version, contentType, body, extra) => ({ status, headers: { ...extra, dataserviceversion: version, 'content-type': contentType }, body });
const unsupported = (what) => ({ status: 400, headers: { 'content-type': 'text/plain' }, body: `ceiling: unsupported request ${what}` });

/** A GET on the service: `path` below the service root, `query` decoded, `json` negotiated. */
function get(root, path, query, json) {
  if (path === '/Products') return feed(root, query, json);
  if (path.startsWith('/Products(') && path.endsWith(')')) {
    const p = productsById.get(Number(path.slice(10, -1)));
    if (p === undefined) return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
    if (!json) return unsupported(path);
    return answer(200, '1.0;', JSON_TYPE, `{"d":${jsonProduct(root, p, false)}}`);
  }
  if (path === '/$metadata') return { status: 200, headers: { 'content-type': 'application/xml;charset=utf-8', etag: metadataETag, dataserviceversion: '2.0;' }, body: metadata };
  return unsupported(path);
}

function feed(root, query, json) {
  let list = products;
  if (query.$filter !== undefined) {
    if (query.$filter !== S3_FILTER) return unsupported(`$filter=${query.$filter}`);
    list = list.filter(s3Predicate);
  }
  if (query.$orderby !== undefined) {
    if (query.$orderby !== 'Name') return unsupported(`$orderby=${query.$orderby}`);
    list = (list === products ? list.slice() : list).sort(byName);
  }
  const total = list.length;
  if (query.$top !== undefined) list = list.slice(0, Number(query.$top));
  const expand = query.$expand === 'Category';
  if (query.$expand !== undefined && !expand) return unsupported(`$expand=${query.$expand}`);
  if (!json) return answer(200, '2.0;', ATOM_TYPE, atomFeed(root, list));
  const entries = jsonProducts(root, list, expand);
  if (query.$inlinecount === 'allpages') return answer(200, '2.0;', JSON_TYPE, `{"d":{"__count":"${total}","results":${entries}}}`);
  return answer(200, '2.0;', JSON_TYPE, `{"d":{"results":${entries}}}`);
}

/** POST Products: a JSON entry with a client-chosen key, kept in the arrays above. */
function create(root, body) {
  let input;
  try {
    input = JSON.parse(body.toString('utf8'));
  } catch {
    return unsupported('body');
  }
  if (!Number.isInteger(input.ID)) return unsupported('ID');
  if (productsById.has(input.ID)) return { status: 409, headers: { 'content-type': 'text/plain' }, body: 'conflict' };
  const fromMsDate = (text) => (text === null || text === undefined ? null : Number(text.slice(6, -2)));
  const p = {
    ID: input.ID,
    Name: input.Name ?? null,
    Description: input.Description ?? null,
    ReleaseDate: fromMsDate(input.ReleaseDate),
    DiscontinuedDate: fromMsDate(input.DiscontinuedDate),
    Rating: input.Rating,
    Price: input.Price,
    priceNumber: Number(input.Price),
    CategoryID: 0,
    SupplierID: 0,
  };
  productsById.set(p.ID, p);
  products.push(p);
  const location = `${root}Products(${p.ID})`;
  return answer(201, '1.0;', JSON_TYPE, `{"d":${jsonProduct(root, p, false)}}`, { location });
}

// ---- $batch: a minimal multipart splitter and writer (RFC 2046 §5.1.1, MS-ODATA §2.2.7.6) ----

function batch(root, contentType, body) {
  const at = contentType.indexOf('boundary=');
  if (at < 0) return unsupported('batch content type');
  const delimiter = `--${contentType.slice(at + 9)}`;
  const parts = body.toString('latin1').split(delimiter);
  const boundary = `batch_${crypto.randomUUID()}`;
  let out = '';
  // parts[0] is the preamble, the last one starts with "--" (the close delimiter).
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i];
    const start = part.indexOf('\r\n\r\n') + 4; // end of the MIME part headers
    const lineEnd = part.indexOf('\r\n', start);
    const [method, target] = part.slice(start, lineEnd).split(' ');
    const headEnd = part.indexOf('\r\n\r\n', lineEnd);
    const accept = part.slice(lineEnd, headEnd).toLowerCase();
    if (method !== 'GET') return unsupported(`batch part ${method}`);
    const q = target.indexOf('?');
    const path = `/${q < 0 ? target : target.slice(0, q)}`;
    const query = q < 0 ? {} : querystring.parse(target.slice(q + 1));
    const json = query.$format === 'json' || accept.includes('application/json');
    const r = get(root, path, query, json);
    const bytes = Buffer.byteLength(r.body);
    out +=
      `--${boundary}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n` +
      `HTTP/1.1 ${r.status} ${r.status === 200 ? 'OK' : 'Error'}\r\nDataServiceVersion: ${r.headers.dataserviceversion}\r\n` +
      `Content-Type: ${r.headers['content-type']}\r\nContent-Length: ${bytes}\r\n\r\n${r.body}\r\n`;
  }
  out += `--${boundary}--\r\n`;
  return { status: 202, headers: { 'content-type': `multipart/mixed; boundary=${boundary}`, dataserviceversion: '1.0;' }, body: out };
}

// ---- Express ----

function send(res, r) {
  res.statusCode = r.status;
  for (const name in r.headers) res.setHeader(name, r.headers[name]);
  res.setHeader('content-length', Buffer.byteLength(r.body));
  res.end(r.body);
}

function readBody(req, done) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => done(Buffer.concat(chunks)));
}

const app = express();
app.use('/odata', (req, res) => {
  const root = `http://${req.headers.host}/odata/`;
  if (req.method === 'GET') {
    const accept = req.headers.accept;
    const json = req.query.$format === 'json' || (accept !== undefined && accept.includes('application/json'));
    send(res, get(root, req.path, req.query, json));
  } else if (req.method === 'POST' && req.path === '/Products') {
    readBody(req, (body) => send(res, create(root, body)));
  } else if (req.method === 'POST' && req.path === '/$batch') {
    readBody(req, (body) => send(res, batch(root, req.headers['content-type'] || '', body)));
  } else {
    send(res, unsupported(`${req.method} ${req.path}`));
  }
});

serveChild('ceiling', app);
