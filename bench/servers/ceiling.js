'use strict';
/**
 * "ceiling": a bare Express handler that answers exactly the benchmark's scenarios with the same
 * V2 payloads as the real service, computed per request with the least possible work: filter,
 * sort and slice over plain arrays, JSON.stringify, string templates for Atom, a minimal
 * multipart splitter for $batch. It is what Express allows on this machine, not an OData server:
 * anything outside the scenarios gets a 400.
 */
const crypto = require('crypto');
const express = require('express');
const { JSON_TYPE, ATOM_TYPE, jsonProduct, jsonProducts, atomFeed, answer, unsupported, batch, send, readBody } = require('./render');
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
const metadata = Buffer.from(
  readMetadata().replace(
    ' xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" xmlns="http://schemas.microsoft.com/ado/2007/05/edm">',
    ' xmlns="http://schemas.microsoft.com/ado/2007/05/edm">',
  ),
  'utf8',
);
// An ETag of the bytes, computed once, as ours sends with $metadata.
const metadataETag = `"${crypto.createHash('sha1').update(metadata).digest('base64url')}"`;

// The only $filter and $orderby the scenarios send (S3); the ceiling does not parse expressions.
const S3_FILTER = 'Price gt 20 and Rating ge 3';
const s3Predicate = (p) => p.priceNumber > 20 && p.Rating >= 3;
// Ordinal (code unit) order, then the key: what a V2 server's $orderby plus key tie-breaker gives.
const byName = (a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : a.ID - b.ID);

// ---- the answers ----

/** A GET on the service: `path` below the service root, `query` decoded, `json` negotiated. */
function get(root, path, query, json) {
  if (path === '/Products') return feed(root, query, json);
  if (path.startsWith('/Products(') && path.endsWith(')')) {
    const p = productsById.get(Number(path.slice(10, -1)));
    if (p === undefined) return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
    if (!json) return unsupported(path);
    return answer(200, '1.0;', JSON_TYPE, `{"d":${jsonProduct(root, p, undefined)}}`);
  }
  if (path === '/$metadata')
    return { status: 200, headers: { 'content-type': 'application/xml;charset=utf-8', etag: metadataETag, dataserviceversion: '2.0;' }, body: metadata };
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
  const entries = jsonProducts(root, list, expand ? (p) => categories[p.CategoryID] : undefined);
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
  return answer(201, '1.0;', JSON_TYPE, `{"d":${jsonProduct(root, p, undefined)}}`, { location });
}

// ---- Express ----

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
    readBody(req, async (body) => send(res, await batch(req.headers['content-type'] || '', body, (path, query, json) => get(root, path, query, json))));
  } else {
    send(res, unsupported(`${req.method} ${req.path}`));
  }
});

serveChild('ceiling', app);
