/**
 * The headers of a response, a micro-optimisation kept behind this module boundary: the same
 * object `{ ...given, dataserviceversion }` gives (spec/format/response-headers.spec.ts compares
 * them), built by a loop into a fresh object. V8 takes a slow path for a spread followed by a new
 * key: ~0.4 µs per response in the service, up to ~2 µs in a micro-benchmark over the header
 * shapes handlers return (none, ETag, ETag and Location), against ~0.05 µs for the loop.
 */

/** The handler's headers (ETag, Location, ...) followed by DataServiceVersion, in a fresh object the caller may add to. */
export function responseHeaders(given: Readonly<Record<string, string>> | undefined, dataServiceVersion: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (given !== undefined) for (const name of Object.keys(given)) headers[name] = given[name];
  headers.dataserviceversion = dataServiceVersion;
  return headers;
}
