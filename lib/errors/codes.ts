/**
 * The catalogue of every error code the service can send. Messages are templates with named
 * parameters (`{name}`), filled by `ODataError.fromCode`. Codes are stable once released, and
 * `docs/errors.md` lists exactly these (a spec checks both directions).
 */
export interface ErrorCodeDefinition {
  /** The HTTP status every error of this code answers with. */
  readonly status: number;
  /** The English message template; `{name}` holes are filled from the params of `fromCode`. */
  readonly message: string;
}

function define<T extends Record<string, ErrorCodeDefinition>>(table: T): { readonly [K in keyof T]: T[K] } {
  return Object.freeze(table);
}

/** The catalogue of every error code the service sends: HTTP status and message template (`{name}` holes). */
export const ERROR_CODES = define({
  // --- generic ---
  INTERNAL: { status: 500, message: 'An internal error occurred.' },
  NOT_IMPLEMENTED: { status: 501, message: '{feature} is not supported by this service.' },
  PROVIDER_TIMEOUT: { status: 503, message: 'The data provider did not finish within {timeout} ms; try again later.' },
  BAD_REQUEST: { status: 400, message: '{detail}' },
  FORBIDDEN: { status: 403, message: '{detail}' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is temporarily unavailable: {detail}. Retry later.' },
  STATEMENT_TIMEOUT: { status: 503, message: 'A database statement did not finish within {timeout} ms; try again later.' },
  TRANSACTION_CONFLICT: { status: 503, message: 'The transaction kept conflicting with concurrent ones ({attempts} attempts); try again later.' },
  DATABASE_UNAVAILABLE: { status: 503, message: 'The database is unavailable; try again later.' },
  WRITE_OUTCOME_UNKNOWN: {
    status: 503,
    message:
      'The connection to the database was lost before it confirmed the change: the change may or may not have been applied. Read the data before trying again.',
  },

  // --- model (thrown by defineModel / loadEdmx; status is irrelevant there) ---
  MODEL_INVALID: { status: 500, message: 'The model is invalid:\n{errors}' },
  EDMX_SYNTAX: { status: 400, message: 'The EDMX document is not well-formed XML: {detail}' },
  EDMX_UNSUPPORTED: { status: 400, message: 'The EDMX document is not supported: {detail}' },

  // --- URI / resource path ---
  URI_UNKNOWN_SEGMENT: { status: 404, message: "Resource not found for the segment '{segment}'.{suggestion}" },
  URI_INVALID_SEGMENT: { status: 400, message: "The segment '{segment}' is not valid here: {detail}" },
  URI_KEY_SYNTAX: { status: 400, message: "Bad key predicate '{key}' for entity type '{type}': {detail}" },
  URI_LITERAL_SYNTAX: { status: 400, message: "Bad literal '{literal}': {detail}" },
  URI_PERCENT_ENCODING: { status: 400, message: "Bad percent-encoding in '{text}'." },
  URI_TOO_LONG: { status: 414, message: 'The request URI is longer than {limit} characters.' },
  URI_HOST_INVALID: { status: 400, message: "The host '{host}' (Host or X-Forwarded-Host header) cannot form the service root URI." },
  RESOURCE_NOT_FOUND: { status: 404, message: "Resource not found for the segment '{segment}'." },

  // --- query options ---
  QUERY_UNKNOWN_OPTION: { status: 400, message: "Unknown system query option '{option}'.{suggestion}" },
  QUERY_DUPLICATE_OPTION: { status: 400, message: "The query option '{option}' is given more than once." },
  QUERY_OPTION_NOT_ALLOWED: { status: 400, message: "The query option '{option}' is not allowed for this resource: {detail}" },
  QUERY_INVALID_VALUE: { status: 400, message: "Invalid value '{value}' for the query option '{option}': {detail}" },
  QUERY_LIMIT_EXCEEDED: { status: 400, message: '{option} exceeds the limit of {limit}: {detail}' },
  FILTER_SYNTAX: { status: 400, message: "Syntax error at position {position} in '{text}': {detail}" },
  FILTER_TYPE: { status: 400, message: "Type error at position {position} in '{text}': {detail}" },
  FILTER_UNKNOWN_PROPERTY: { status: 400, message: "No property '{name}' exists in type '{type}' at position {position} in '{text}'.{suggestion}" },
  FILTER_UNKNOWN_FUNCTION: { status: 400, message: "Unknown function '{name}' at position {position} in '{text}'.{suggestion}" },
  FILTER_ARITY: { status: 400, message: "Function '{name}' takes {expected} argument(s), got {actual}, at position {position} in '{text}'." },
  FILTER_DIVISION_BY_ZERO: { status: 400, message: "Division by zero while evaluating '{expression}'." },
  SKIPTOKEN_INVALID: { status: 400, message: "The $skiptoken '{token}' is not valid for this request." },
  SEARCH_INVALID: { status: 400, message: "Invalid search '{text}': {detail}" },
  SEARCH_NOT_ALLOWED: { status: 400, message: 'The search query option is not allowed here: {detail}' },

  // --- negotiation & versions ---
  NOT_ACCEPTABLE: { status: 406, message: 'None of the acceptable formats can be produced: {detail}' },
  UNSUPPORTED_FORMAT: { status: 400, message: "Unsupported $format value '{format}'. Use atom, xml, json or a media type." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "Unsupported content type '{contentType}': {detail}" },
  VERSION_INVALID: { status: 400, message: "Invalid {header} header '{value}'." },
  VERSION_TOO_HIGH: { status: 400, message: 'The {header} {value} is not supported; this service implements OData 1.0 and 2.0.' },
  VERSION_TOO_LOW: { status: 400, message: 'The response requires DataServiceVersion {required}, but MaxDataServiceVersion is {max}.' },
  VERSION_REQUEST_TOO_LOW: {
    status: 400,
    message: 'The request uses {feature}, which needs DataServiceVersion {required}, but it declares DataServiceVersion {declared}.',
  },

  // --- methods and preconditions ---
  METHOD_NOT_ALLOWED: { status: 405, message: 'The method {method} is not allowed on this resource ({resource}).' },
  METHOD_NOT_IMPLEMENTED: {
    status: 501,
    message: 'The HTTP method {method} is not implemented by this service; it serves GET, HEAD, POST, PUT, MERGE, PATCH and DELETE.',
  },
  PRECONDITION_FAILED: { status: 412, message: 'The entity tag given in {header} does not match the current entity tag.' },
  PRECONDITION_REQUIRED: { status: 428, message: 'This entity is concurrency-controlled: send an If-Match header with its entity tag.' },
  PRECONDITION_INVALID: { status: 400, message: '{detail}' },
  TUNNELING_INVALID: { status: 400, message: '{detail}' },
  CSRF_TOKEN_REQUIRED: { status: 403, message: 'CSRF token validation failed.' },

  // --- authentication (the command line's --auth; a host's own check may raise them too) ---
  AUTH_REQUIRED: { status: 401, message: 'This service needs credentials: send them in the Authorization header.' },
  AUTH_INVALID: { status: 401, message: 'The credentials are not valid.' },
  AUTH_NO_ROLE: { status: 403, message: 'The credentials name no role this service runs requests as.' },
  AUTH_UNAVAILABLE: { status: 503, message: 'The credentials cannot be checked now (the keys that verify them cannot be fetched); retry later.' },

  // --- request bodies ---
  BODY_TOO_LARGE: { status: 413, message: 'The request body exceeds the limit of {limit} bytes.' },
  BODY_TIMEOUT: { status: 408, message: 'The request body did not arrive within {timeout} ms.' },
  BODY_MISSING: { status: 400, message: 'A request body is required.' },
  BODY_SYNTAX: { status: 400, message: 'The request body is not well-formed {format}: {detail}' },
  BODY_INVALID: { status: 400, message: 'The request body is invalid: {detail}' },
  BODY_DOCTYPE: { status: 400, message: 'XML bodies with a DOCTYPE or entity declarations are refused.' },
  VALUE_INVALID: { status: 400, message: "Invalid value for property '{property}' of type {type}: {detail}" },
  PROPERTY_REQUIRED: {
    status: 400,
    message:
      "The property '{property}' of {entityType} is required: it is not nullable and has no default value, so a new entry, and a replace (PUT) of one, must give it.",
  },
  KEY_MISMATCH: { status: 400, message: 'The key in the request body does not match the key in the URL.' },
  PROPERTY_NOT_UPDATABLE: {
    status: 400,
    message: "The property '{property}' of '{entitySet}' cannot be changed (sap:updatable=\"false\"): leave it out, or send its current value.",
  },

  // --- data (raised by handlers or providers) ---
  ENTITY_NOT_FOUND: { status: 404, message: "No entity with the key {key} exists in '{entitySet}'." },
  ENTITY_EXISTS: { status: 409, message: "An entity with the key {key} already exists in '{entitySet}'." },
  CONSTRAINT_VIOLATION: { status: 409, message: '{detail}' },
  MEMORY_DATA_INVALID: { status: 500, message: 'The data given to MemoryProvider is invalid:\n{errors}' },

  // --- $batch ---
  BATCH_CONTENT_TYPE: { status: 400, message: '$batch requires Content-Type multipart/mixed with a boundary: {detail}' },
  BATCH_SYNTAX: { status: 400, message: 'The batch request is malformed: {detail}' },
  BATCH_PART_LIMIT: { status: 400, message: 'The batch request has more than {limit} {what}.' },
  BATCH_CONTENT_ID: { status: 400, message: '{detail}' },
  BATCH_NOT_ALLOWED: { status: 400, message: '{detail}' },
});

/** A key of the catalogue. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Fill a template's `{name}` holes; an unknown name is left visible so a typo shows in tests. */
export function formatMessage(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (hole, name: string) => (Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : hole));
}
