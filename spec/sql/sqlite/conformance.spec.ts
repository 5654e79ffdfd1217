/**
 * SqlProvider passes the provider kit's conformance suite on SQLite in memory: each unit gets a
 * database of its own (an in-memory SQLite database costs a millisecond).
 */
import { describeDataProvider } from '../../../lib/testing';
import { sqliteConformanceSetup } from './conformance-setup';

describeDataProvider('SqlProvider on SQLite in memory', (fixture) => sqliteConformanceSetup(fixture));
