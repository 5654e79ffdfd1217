export { introspect } from './introspect';
export { checkKeys, type CheckKeysOptions } from './check-keys';
export type { IntrospectOptions, IntrospectionResult, IntrospectionWarning, IntrospectionWarningCode, UncheckedKey } from './types';
export type { NamingStyle } from './naming';
