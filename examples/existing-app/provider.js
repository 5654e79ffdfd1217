'use strict';
/**
 * A DataProvider over the app's own Store (not MemoryProvider): the worked example of
 * docs/provider-tutorial.md. It shows the whole contract at a small size:
 *
 * - query: walk the path (key, navigation hops), hand $filter/$orderby/$skiptoken/paging/count
 *   to the shared `applyQuery`, fill `$expand`;
 * - create/update/delete: the If-Match precondition is checked in the same synchronous step as
 *   the write, so no other request can slip in between;
 * - transaction: an undo log per write or $batch changeset, kept with the request context in a
 *   TransactionScope (nested use joins it);
 * - etag: an ETag from a column the model does not show; operations: one service operation;
 * - authorisation per entity set from `context.request.user` (set by the app's own auth
 *   middleware; in a $batch every part carries the outer request's context).
 */
const { ODataError, applyQuery, createTransactionScope, fillDefaults, walkExpression } = require('express-odata-v2');
const { DuplicateKeyError } = require('./store');

/** The role a user needs to read or write each entity set. */
const ROLE_FOR_SET = { Customers: 'sales', Orders: 'sales', Invoices: 'finance' };

/**
 * How each navigation property (`Type/Property`) is stored: the set it leads to, and the foreign
 * key column, held by the source row (`Order.CustomerID`) or by the target rows.
 */
const NAVIGATION = {
  'Customer/Orders': { set: 'Orders', column: 'CustomerID', heldBy: 'target' },
  'Customer/Invoices': { set: 'Invoices', column: 'CustomerID', heldBy: 'target' },
  'Order/Customer': { set: 'Customers', column: 'CustomerID', heldBy: 'source' },
  'Invoice/Customer': { set: 'Customers', column: 'CustomerID', heldBy: 'source' },
};

/** The undo log of the transaction open for a request context. */
const undoLog = createTransactionScope('undo log');

function navigationOf(property) {
  return NAVIGATION[`${property.declaringType.name}/${property.name}`];
}

function matchesKey(row, key) {
  return Object.keys(key).every((name) => row[name] === key[name]);
}

function keyText(key) {
  return `(${Object.values(key).join(',')})`;
}

/** 403 unless the signed-in user has the role the entity set needs. */
function authorize(context, setName) {
  const user = context.request.user;
  const role = ROLE_FOR_SET[setName];
  if (user === undefined || !user.roles.includes(role)) {
    throw ODataError.fromCode('FORBIDDEN', { detail: `You may not access ${setName}.` });
  }
}

/**
 * Every entity set a read touches: the path, each hop, every `$expand`, and navigation inside
 * `$filter`/`$orderby` (`Customer/Name`), so no route reaches a set the user may not read.
 */
function setsReadBy(request) {
  const sets = new Set([request.path.root.entitySet.name, request.entitySet.name]);
  for (const hop of request.path.navigation) sets.add(hop.entitySet.name);
  const addExpanded = (items) => {
    for (const item of items) {
      sets.add(item.entitySet.name);
      addExpanded(item.expand);
    }
  };
  addExpanded(request.selectExpand.expand);
  const visitor = {
    Member(node) {
      for (const step of node.steps ?? []) if (step.kind === 'Navigation') sets.add(navigationOf(step.property).set);
    },
  };
  if (request.filter !== undefined) walkExpression(request.filter, visitor);
  for (const item of request.orderBy) walkExpression(item.expression, visitor);
  return sets;
}

/**
 * Undo `step` if the surrounding changeset fails (no-op outside a $batch changeset). Each step
 * undoes only while the row is still the one this changeset wrote: rows are replaced, never
 * changed in place, so identity tells whether another request has written it since.
 */
function onRollback(context, step) {
  const log = undoLog.current(context);
  if (log !== undefined) log.push(step);
}

function createProvider(store) {
  /** The rows a navigation property leads to from `row`. */
  function relatedRows(row, property) {
    const nav = navigationOf(property);
    const targets = store.all(nav.set);
    return nav.heldBy === 'source' ? targets.filter((t) => t.ID === row[nav.column]) : targets.filter((t) => t[nav.column] === row.ID);
  }

  /** The rows an EntityPath addresses: the set (by key), then each navigation hop (by key). */
  function rowsOf(path) {
    let rows = store.all(path.root.entitySet.name);
    if (path.root.key !== undefined) rows = rows.filter((row) => matchesKey(row, path.root.key));
    for (const hop of path.navigation) {
      rows = rows.flatMap((row) => relatedRows(row, hop.property));
      if (hop.key !== undefined) rows = rows.filter((row) => matchesKey(row, hop.key));
    }
    return rows;
  }

  /** A copy of `row` with its `$expand`ed navigation properties filled (an entity or null, or an array). */
  function expand(row, items) {
    if (items.length === 0) return row;
    const copy = { ...row };
    for (const item of items) {
      const targets = relatedRows(row, item.property).map((target) => expand(target, item.expand));
      copy[item.property.name] = item.property.isCollection ? targets : (targets[0] ?? null);
    }
    return copy;
  }

  /** Set foreign keys from a POST through navigation (`Customers(1)/Orders`) and from links in the body. */
  function applyLinks(row, request) {
    if (request.parent !== undefined) {
      const nav = navigationOf(request.parent.navigationProperty);
      row[nav.column] = request.parent.source.key.ID;
    }
    for (const binding of request.bindings) {
      const nav = navigationOf(binding.property);
      if (nav.heldBy !== 'source') throw ODataError.fromCode('NOT_IMPLEMENTED', { feature: `Linking ${binding.property.name} from this side` });
      // No target: the body set a single-valued navigation property to null (unlink).
      row[nav.column] = binding.targets.length === 0 ? null : binding.targets[0].key.ID;
    }
    if ('CustomerID' in row && store.get('Customers', row.CustomerID) === undefined) {
      throw ODataError.fromCode('CONSTRAINT_VIOLATION', { detail: `Customer ${row.CustomerID} does not exist.` });
    }
    return row;
  }

  function current(setName, key) {
    const row = store.get(setName, key.ID);
    if (row === undefined) throw ODataError.fromCode('ENTITY_NOT_FOUND', { key: keyText(key), entitySet: setName });
    return row;
  }

  function checkPrecondition(precondition, row) {
    if (precondition !== undefined && !precondition.matches(row)) throw ODataError.fromCode('PRECONDITION_FAILED', { header: 'If-Match' });
  }

  /** Columns the store keeps up to date on every write (the Version ETag, the hidden Revision). */
  function bumped(setName, row, previous) {
    if (setName === 'Orders') return { ...row, Version: previous === undefined ? 1 : previous.Version + 1 };
    if (setName === 'Invoices') return { ...row, Revision: previous === undefined ? 1 : previous.Revision + 1 };
    return row;
  }

  return {
    async query(request, context) {
      for (const set of setsReadBy(request)) authorize(context, set);
      // `related` lets $filter and $orderby follow single-valued navigation (Customer/City).
      const related = (row, property) => relatedRows(row, property)[0] ?? null;
      const { entities, count } = applyQuery(rowsOf(request.path), request, related);
      return { entities: entities.map((row) => expand(row, request.selectExpand.expand)), count };
    },

    async create(request, context) {
      const setName = request.entitySet.name;
      authorize(context, setName);
      if (request.inline.length > 0) throw ODataError.fromCode('NOT_IMPLEMENTED', { feature: 'Deep insert' });
      // The request holds what the client sent: the model's DefaultValues (else null) for the rest.
      const row = bumped(setName, applyLinks(fillDefaults(request.entityType, request.values), request), undefined);
      let stored;
      try {
        stored = store.insert(setName, row);
      } catch (error) {
        if (error instanceof DuplicateKeyError) throw ODataError.fromCode('ENTITY_EXISTS', { key: `(${error.id})`, entitySet: setName });
        throw error;
      }
      onRollback(context, () => {
        if (store.get(setName, stored.ID) === stored) store.remove(setName, stored.ID);
      });
      return stored;
    },

    async update(request, context) {
      const setName = request.entitySet.name;
      authorize(context, setName);
      // From here to store.replace nothing awaits: the check and the write are one step.
      const previous = current(setName, request.key);
      checkPrecondition(request.precondition, previous);
      const values = request.mode === 'replace' ? { ...request.values } : { ...previous, ...request.values };
      const row = bumped(setName, applyLinks({ ...values, ID: previous.ID }, { parent: undefined, bindings: request.bindings }), previous);
      const stored = store.replace(setName, row);
      onRollback(context, () => {
        if (store.get(setName, stored.ID) === stored) store.replace(setName, previous);
      });
      return stored;
    },

    async delete(request, context) {
      const setName = request.entitySet.name;
      authorize(context, setName);
      const previous = current(setName, request.key);
      checkPrecondition(request.precondition, previous);
      if (setName === 'Customers' && ['Orders', 'Invoices'].some((set) => store.all(set).some((row) => row.CustomerID === previous.ID))) {
        throw ODataError.fromCode('CONSTRAINT_VIOLATION', { detail: `Customer ${previous.ID} still has orders or invoices.` });
      }
      store.remove(setName, previous.ID);
      onRollback(context, () => {
        if (store.get(setName, previous.ID) === undefined) store.insert(setName, previous);
      });
    },

    /** A write or a $batch changeset: undo every write made inside `work` when it fails. */
    async transaction(work, context) {
      return undoLog.run(
        context,
        async (body) => {
          const log = [];
          try {
            return await body(log);
          } catch (error) {
            for (const undo of log.reverse()) undo();
            throw error;
          }
        },
        work,
      );
    },

    /** Invoices keep a Revision column that the model does not show; it is their ETag. */
    etag(entity, entityType) {
      return entityType.name === 'Invoice' && entity.Revision !== undefined ? `r${entity.Revision}` : undefined;
    },

    operations: {
      /** GET OrdersByStatus?status='open': $filter, $orderby, $top... still apply to the result. */
      async OrdersByStatus(call, context) {
        authorize(context, 'Orders');
        return store.all('Orders').filter((order) => order.Status === call.parameters.status);
      },
    },
  };
}

module.exports = { createProvider };
