/**
 * MemoryProvider passes the whole conformance suite: the suite as a provider author runs it.
 */
import { MemoryProvider } from '../../lib';
import { describeDataProvider } from '../../lib/testing';

describeDataProvider('MemoryProvider', ({ model, data }) => ({ provider: new MemoryProvider(model, data) }));
