/** The provider contract and the shared helpers any provider can use (evaluator, exact decimals). */
export * from './types';
export * from './evaluate';
export { seekCondition } from './seek';
export { conditionalWriteError, preconditionCondition } from './precondition';
export { createTransactionScope } from './transaction';
export type { BeginTransaction, TransactionRunOptions, TransactionScope } from './transaction';
export { assertRequiredSent, fillDefaults, isRequiredOnCreate, isStoreGenerated, requiredProperties, sentValues, writtenProperties } from './sent';
export { readOnlyProvider } from './read-only';
export {
  addDecimal,
  ceilingDecimal,
  compareDecimal,
  divideDecimal,
  floorDecimal,
  formatDecimal,
  moduloDecimal,
  multiplyDecimal,
  parseDecimal,
  roundDecimal,
  subtractDecimal,
} from './decimal';
export type { ExactDecimal } from './decimal';
export { isProviderTimeout, providerTimeoutError } from './timeout';
