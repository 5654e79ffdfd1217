'use strict';
/**
 * What the benchmark's ceilings write (bench/servers/ceiling.js over arrays, sql-ceiling.js over a
 * database): verbose JSON and Atom entries of ODataDemo.Product as the real service writes them,
 * byte for byte, plus the $batch splitter and writer and the Express plumbing. A product here is
 * `{ ID, Name, Description, ReleaseDate, DiscontinuedDate (ms or null), Rating, Price (text) }`.
 */
const crypto = require('crypto');
const querystring = require('querystring');

const JSON_TYPE = 'application/json;charset=utf-8';
const ATOM_TYPE = 'application/atom+xml;charset=utf-8';
const NS = 'http://schemas.microsoft.com/ado/2007/08/dataservices';

// ---- JSON (verbose, MS-ODATA §2.2.6.3) ----
// A template per entry with JSON.stringify for the strings: cheaper than building objects for
// JSON.stringify, and it writes DateTime as WCF does ("\/Date(ms)\/"), which JSON.stringify cannot.

const str = JSON.stringify;
const msDate = (ms) => (ms === null ? 'null' : `"\\/Date(${ms})\\/"`);

/** One entry; `c` is its Category to write inline (`$expand=Category`), else undefined. */
function jsonProduct(root, p, c) {
  const uri = `${root}Products(${p.ID})`;
  let category;
  if (c !== undefined) {
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

/** A JSON array of entries; `categoryOf(p)` gives each one's inline Category, or is undefined. */
function jsonProducts(root, list, categoryOf) {
  let text = '[';
  for (let i = 0; i < list.length; i++) text += (i === 0 ? '' : ',') + jsonProduct(root, list[i], categoryOf === undefined ? undefined : categoryOf(list[i]));
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

const answer = (status, version, contentType, body, extra) => ({
  status,
  headers: { ...extra, dataserviceversion: version, 'content-type': contentType },
  body,
});
const unsupported = (what) => ({ status: 400, headers: { 'content-type': 'text/plain' }, body: `ceiling: unsupported request ${what}` });

// ---- $batch: a minimal multipart splitter and writer (RFC 2046 §5.1.1, MS-ODATA §2.2.7.6) ----

/** Answer each GET part of a $batch body with `get(path, query, json)` (a sync or async answer). */
async function batch(contentType, body, get) {
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
    const r = await get(path, query, json);
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

module.exports = { JSON_TYPE, ATOM_TYPE, jsonProduct, jsonProducts, atomFeed, answer, unsupported, batch, send, readBody };
