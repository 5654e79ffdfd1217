/** The demo app for end-to-end specs, on Express 4 or 5, with a fixed clock. */
import express4 from 'express4';
import express5 from 'express';
import { startServer, RunningServer } from './server';

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
