export { allowedMethods, buildRoutes, dispatch } from './dispatch';
export type { Method, Routes } from './dispatch';
export type { Handler, ServiceConfig, WriteMethodName } from './context';
export { chooseResponseVersion } from './response-version';
export { createUnitOfWork } from './unit-of-work';
