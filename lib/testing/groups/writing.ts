/**
 * Small steps the writing cases are made of: send a write and expect its status, read an entry
 * or what a navigation property links to, expect an entry to be gone. Each names the request in
 * its failure.
 */
import { entryOf, expectEqual, expectStatus, fail, feedOf, isObject, jsonOf, show } from '../check';
import type { JsonObject } from '../check';
import type { HttpAnswer, ServiceClient } from '../client';
import { url } from '../client';
import { idOfEntry, sortIds } from '../entities';
import type { EntityId, FixtureSet } from '../entities';

/** A JSON write (`body` undefined: none) that must answer `status`. */
export async function send(
  service: ServiceClient,
  method: string,
  path: string,
  body: unknown,
  status: number | readonly number[],
  headers: Readonly<Record<string, string>> = {},
): Promise<HttpAnswer> {
  const target = url(path);
  const answer = body === undefined ? await service.send(method, target, { headers }) : await service.sendJson(method, target, body, headers);
  expectStatus(answer, status, `${method} ${path}`);
  return answer;
}

/** POST a JSON entry that must be created: the answer's entry and its Location. */
export async function create(service: ServiceClient, path: string, body: unknown): Promise<{ entry: JsonObject; location: string }> {
  const answer = await send(service, 'POST', path, body, 201);
  const location = answer.headers.location;
  if (location === undefined) fail(`POST ${path} answered 201 without a Location header`);
  return { entry: entryOf(answer, `POST ${path}`, 201), location };
}

/** GET an entry that must exist. */
export async function read(service: ServiceClient, path: string, query: Readonly<Record<string, string>> = {}): Promise<JsonObject> {
  const target = url(path, query);
  return entryOf(await service.get(target), `GET ${target}`);
}

/** GET an entry that must not exist (404). */
export async function expectMissing(service: ServiceClient, path: string, why: string): Promise<void> {
  const answer = await service.get(url(path));
  if (answer.status !== 404) fail(`GET ${path} answered ${answer.status}, expected 404: ${why}`);
}

/** The ids a navigation property links to: a feed's entries, or one entry (none for 204). */
export async function linked(service: ServiceClient, path: string, set: FixtureSet): Promise<EntityId[]> {
  const target = url(path);
  const answer = await service.get(target);
  if (answer.status === 204) return [];
  expectStatus(answer, 200, `GET ${target}`);
  const { d } = jsonOf(answer, `GET ${target}`);
  if (isObject(d) && !('results' in d)) return [idOfEntry(set, d)];
  return sortIds(feedOf(answer, `GET ${target}`).entries.map((entry) => idOfEntry(set, entry)));
}

/** `linked` must give `expected` (in any order). */
export async function expectLinks(service: ServiceClient, path: string, set: FixtureSet, expected: readonly EntityId[], why: string): Promise<void> {
  expectEqual(await linked(service, path, set), sortIds(expected), `GET ${path} (${why})`);
}

/** The OData error code and message of an answer. */
function errorOf(answer: HttpAnswer): { code: string; message: string } {
  try {
    const body: unknown = JSON.parse(answer.text);
    if (isObject(body) && isObject(body.error)) {
      const message = isObject(body.error.message) ? body.error.message.value : body.error.message;
      return { code: String(body.error.code), message: String(message) };
    }
  } catch {
    // Not JSON: reported below with the text.
  }
  return { code: '', message: answer.text.slice(0, 200) };
}

/** A JSON write (POST, PUT) that omits `property`: it must be 400 PROPERTY_REQUIRED naming it. */
export async function expectRequired(
  service: ServiceClient,
  method: string,
  path: string,
  body: unknown,
  property: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<void> {
  const answer = await service.sendJson(method, url(path), body, headers);
  const request = `${method} ${path} without ${property}`;
  if (answer.status !== 400) fail(`${request} answered ${answer.status}, expected 400 PROPERTY_REQUIRED: ${show(answer.text.slice(0, 200))}`);
  const { code, message } = errorOf(answer);
  if (code !== 'PROPERTY_REQUIRED' || !message.includes(`'${property}'`))
    fail(`${request} answered 400 ${code}: ${show(message)}, expected PROPERTY_REQUIRED naming '${property}'`);
}

/** `{ "__metadata": { "uri": path } }`: a binding in a JSON entry body. */
export function bind(path: string): JsonObject {
  return { __metadata: { uri: path } };
}

/** Structural values of an entry for the named properties. */
export function pick(entry: JsonObject, names: readonly string[]): JsonObject {
  return Object.fromEntries(names.map((name) => [name, entry[name]]));
}
