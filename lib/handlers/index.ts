export { allowedMethods, buildRoutes, dispatch } from './dispatch';
export type { Method, Routes } from './dispatch';
export type { Handler, HandlerContext, ServiceConfig, WriteMethodName } from './context';
export { chooseResponseVersion, responseVersion } from './response-version';
export type { ResponseVersion } from './response-version';
export { createUnitOfWork } from './unit-of-work';
export type { UnitOfWork } from './unit-of-work';
