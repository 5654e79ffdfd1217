/**
 * The ODataDemo service for specs: the demo app on Express 4 or 5 with a fixed clock, and the
 * pieces spec-local apps build on (the model, the data and its foreign-key links, a provider).
 */
import express4 from 'express4';
import express5 from 'express';
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx, MemoryProvider } from '../../lib';
import type { EdmModel } from '../../lib';
import type { MemoryData } from '../../lib/provider/entity-data';
import { startServer, type RunningServer } from './server';

const DEMO_FIXTURE = join(__dirname, '..', 'fixtures', 'odata-demo');

/** The ODataDemo model, read once from the fixture's $metadata (models are immutable, so shared). */
export const DEMO_MODEL: EdmModel = loadEdmx(readFileSync(join(DEMO_FIXTURE, 'metadata.xml'), 'utf8'));

/** A fresh copy of the ODataDemo data as shipped (foreign keys CategoryID / SupplierID on Products). */
export function demoData(): MemoryData {
  return JSON.parse(readFileSync(join(DEMO_FIXTURE, 'data.json'), 'utf8')) as MemoryData;
}

/** The foreign-key fields of the demo data that stand for links (they are not model properties). */
export const DEMO_LINKS = { Products: { Category: 'CategoryID', Supplier: 'SupplierID' } } as const;

/** A MemoryProvider over the demo data, or over other data shaped like it. */
export function demoProvider(data: MemoryData = demoData()): MemoryProvider {
  return new MemoryProvider(DEMO_MODEL, data, { links: DEMO_LINKS });
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createDemoApp } = require('../../examples/odata-demo/app') as {
  createDemoApp(options: { express?: unknown; service?: Record<string, unknown> }): Parameters<typeof startServer>[0];
};

export const EXPRESS_VERSIONS = [
  ['Express 4', express4],
  ['Express 5', express5],
] as const;

export const FIXED_NOW = new Date('2026-01-02T03:04:05.678Z');

export function startDemo(expressModule: unknown = express5, service: Record<string, unknown> = {}): Promise<RunningServer> {
  return startServer(createDemoApp({ express: expressModule, service: { now: () => FIXED_NOW, ...service } }));
}
