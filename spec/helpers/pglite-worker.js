'use strict';
/**
 * The PGlite instance of this jest worker, shared by its spec files one after the other. It is
 * kept here because this file is loaded with Node's own require (spec/helpers/pglite.ts): jest
 * gives every spec file a fresh module registry, Node's module cache lives as long as the worker.
 */
module.exports = { instance: undefined, leased: false };
