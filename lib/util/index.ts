export { didYouMean, lexicalDistance } from './did-you-mean';
export { assertNever } from './assert-never';
