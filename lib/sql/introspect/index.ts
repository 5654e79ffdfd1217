export { introspect } from './introspect';
export { checkKeys, type CheckKeysOptions } from './check-keys';
export { checkMapping, type CheckMappingOptions } from './check-mapping';
export type { AnnotationStyle, IntrospectOptions, IntrospectionResult, IntrospectionWarning, IntrospectionWarningCode, UncheckedKey } from './types';
export type { NamingStyle } from './naming';
