export { didYouMean } from './did-you-mean';
export { assertNever } from './assert-never';
export { isExcludedFromXml, textProblem, toWellFormed } from './unicode';
export { systemClock } from './clock';
export { memoByText } from './text-memo';
export { isReadonlyArray } from './readonly-array';
export { mapConcurrently, pause } from './concurrency';
export type { Clock } from './clock';
