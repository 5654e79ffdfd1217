export { introspect } from './introspect';
export type { IntrospectOptions, IntrospectionResult, IntrospectionWarning, IntrospectionWarningCode } from './types';
export type { NamingStyle } from './naming';
