'use strict';
/**
 * The server of bench/streaming-check.js: the ODataDemo model over a provider whose `query`
 * returns `entities` as an async iterable that makes Products on the fly (like a database
 * cursor), so the provider itself holds no feed in memory. `GET Products?n=100000` asks for n
 * entities (a custom query option). The provider records when it yielded the first and the last
 * entity; the parent reads that with the `timings` message. `buffered=1` returns an array made
 * from the same cursor instead: the control case, which must not pass as streaming.
 */
const express = require('express');
const { odata, loadEdmx } = require('express-odata-v2');
const { readMetadata } = require('../data');
const { serveChild } = require('./child');

// Absolute milliseconds, comparable with the parent's clock (same machine).
const now = () => performance.timeOrigin + performance.now();
const BATCH = 500; // entities per cursor batch: a macrotask break after each, as a driver would

let last = {};
let nextRequest = 0;

const base = Date.UTC(1990, 0, 1);
async function* products(count, record) {
  for (let id = 0; id < count; id++) {
    if (id % BATCH === 0) await new Promise(setImmediate);
    const entity = {
      ID: id,
      Name: `Streamed product ${id}`,
      Description: 'An entity made by the streaming provider, never stored',
      ReleaseDate: new Date(base + (id % 10000) * 86400000),
      DiscontinuedDate: null,
      Rating: id % 6,
      Price: `${id % 1000}.25`,
    };
    if (id === 0) record.firstYield = now();
    if (id === count - 1) record.lastYield = now();
    yield entity;
  }
  record.done = now();
}

const provider = {
  async query(request) {
    const count = Number(request.customOptions.n ?? 1000);
    last = { request: ++nextRequest, started: now(), count };
    if (request.customOptions.buffered === '1') {
      const all = [];
      for await (const entity of products(count, last)) all.push(entity);
      return { entities: all };
    }
    return { entities: products(count, last) };
  },
};

const model = loadEdmx(readMetadata());
const app = express();
app.use('/odata', odata({ model, provider }));

serveChild('streaming', app, { timings: () => ({ timings: last }) });
