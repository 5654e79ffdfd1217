/**
 * URI literal forms of primitive values (MS-ODATA §2.2.2): scanning, parsing, converting to a
 * declared type, printing, and key predicates. The pieces live in literal-*.ts; this is their surface.
 */
export { parseLiteral, scanLiteral } from './literal-parse';
export type { ParsedLiteral } from './literal-parse';
export { convertLiteral } from './literal-convert';
export { encodeLiteral, printKeyPredicate, printLiteral } from './literal-print';
