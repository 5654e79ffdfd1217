export { dispatch, allowedMethods } from './dispatch';
export type { Method } from './dispatch';
export type { Handler, HandlerContext, ServiceConfig } from './context';
export { chooseResponseVersion, responseVersion } from './response-version';
export type { ResponseVersion } from './response-version';
export { createUnitOfWork } from './unit-of-work';
export type { UnitOfWork } from './unit-of-work';
