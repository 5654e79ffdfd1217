/**
 * SqlProvider passes the provider kit's conformance suite on SQLite in a file (WAL journal, the
 * file's own locking): each unit gets a new file in a temporary folder, removed after the run.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { describeDataProvider } from '../../../lib/testing';
import { sqliteConformanceSetup } from './conformance-setup';

const folder = mkdtempSync(join(tmpdir(), 'odata-sqlite-conformance-'));
let units = 0;

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeDataProvider('SqlProvider on a SQLite file', (fixture) => sqliteConformanceSetup(fixture, join(folder, `unit${++units}.sqlite`)));
