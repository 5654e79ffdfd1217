/**
 * The pushdown contract under the conformance suite: a provider that translates only `eq` and
 * leaves the rest of `$filter` (and, in the second variant, the order, the skiptoken, skip/top and
 * the count) to the service through `QueryResult.applied` answers every read case as a provider
 * that does everything. Writes are not what this is about: the wrapper is read-only.
 */
import { MemoryProvider } from '../../lib';
import { describeDataProvider } from '../../lib/testing';
import { EqOnlyProvider } from '../helpers/eq-only-provider';

describeDataProvider(
  'an eq-only provider (order applied)',
  ({ model, data }) => ({ provider: new EqOnlyProvider(new MemoryProvider(model, data), model, true) }),
  {
    capabilities: { writes: false, media: false },
  },
);

describeDataProvider(
  'an eq-only provider (order, skiptoken, paging and count left to the service)',
  ({ model, data }) => ({ provider: new EqOnlyProvider(new MemoryProvider(model, data), model, false) }),
  { capabilities: { writes: false, media: false } },
);
