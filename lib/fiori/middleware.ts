/**
 * `fiori(options)`: the preview as a plain Node/Express middleware (no import of Express). Every
 * file is made from the model once, kept in memory with its ETag, and answered with its content
 * type, `Cache-Control: no-cache` (a browser revalidates: another model after a restart is
 * another ETag) and `X-Content-Type-Options: nosniff`.
 * Paths it does not know go to `next()`, so the host app's other routes keep working.
 */
import { createHash } from 'crypto';
import type { IncomingMessage, ServerResponse } from 'http';
import type { EdmEntitySet } from '../edm';
import { COMPONENT_SCRIPT, STYLESHEET } from './assets';
import { manifestOf } from './manifest';
import { resolveFioriOptions, type FioriOptions } from './options';
import { appPage, labelOf, launchPage } from './pages';

/** What `fiori()` returns: mount it with `app.use('/', fiori({...}))` (or under any path). */
export type FioriMiddleware = (request: IncomingMessage & { originalUrl?: string }, response: ServerResponse, next: (error?: unknown) => void) => void;

/** One file the preview serves. */
interface Asset {
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

const HTML = 'text/html; charset=utf-8';
const JS = 'application/javascript; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

function asset(text: string, contentType: string, policy?: string): Asset {
  const body = Buffer.from(text, 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return {
    body,
    headers: {
      'content-type': contentType,
      'cache-control': 'no-cache',
      etag,
      'x-content-type-options': 'nosniff',
      ...(contentType === HTML ? { 'referrer-policy': 'same-origin' } : {}),
      ...(policy === undefined ? {} : { 'content-security-policy': policy }),
    },
  };
}

/**
 * The launch page runs no script at all. The apps' pages have no inline script or style either,
 * but get no policy from here: SAPUI5's development bootstrap (`ui5 serve`, @ui5/server) writes
 * inline scripts, so a policy is the host app's to choose for where its SAPUI5 comes from.
 */
const LAUNCH_POLICY = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/** The files of one set's app, made on first request. */
interface AppAssets {
  readonly page: Asset;
  readonly manifest: Asset;
}

/** Create the Fiori preview middleware. Options are checked here, once; a mistake throws a TypeError. */
export function fiori(options: FioriOptions): FioriMiddleware {
  const resolved = resolveFioriOptions(options);
  const launch = asset(launchPage(resolved), HTML, LAUNCH_POLICY);
  const stylesheet = asset(STYLESHEET, CSS);
  const component = asset(COMPONENT_SCRIPT, JS);
  const apps = new Map<EdmEntitySet, AppAssets>();
  const appOf = (entitySet: EdmEntitySet): AppAssets => {
    let made = apps.get(entitySet);
    if (made === undefined) {
      made = {
        page: asset(appPage(resolved, entitySet), HTML),
        manifest: asset(JSON.stringify(manifestOf(resolved.model, entitySet, resolved.service, labelOf(entitySet)), null, 2), JSON_TYPE),
      };
      apps.set(entitySet, made);
    }
    return made;
  };

  /** The asset at a path below the mount point, a redirect target, or undefined (not ours). */
  const route = (path: string): Asset | { redirect: string } | undefined => {
    if (path === '/') return launch;
    if (path === '/preview.css') return stylesheet;
    const match = /^\/apps\/([^/]+)(\/.*)?$/.exec(path);
    if (match === null) return undefined;
    let name: string;
    try {
      name = decodeURIComponent(match[1]);
    } catch {
      return undefined;
    }
    const entitySet = resolved.model.entitySets.get(name);
    if (entitySet === undefined) return undefined;
    switch (match[2]) {
      case undefined:
        return { redirect: `${match[1]}/` };
      case '/':
      case '/index.html':
        return appOf(entitySet).page;
      case '/manifest.json':
        return appOf(entitySet).manifest;
      case '/Component.js':
        return component;
      default:
        return undefined;
    }
  };

  return (request, response, next) => {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    let found = route(path);
    // Mounted at /preview, a request for /preview reaches here as '/': the pages' relative links
    // need the slash, as a static file server redirects a folder.
    const original = request.originalUrl?.split('?')[0];
    if (found === launch && original !== undefined && !original.endsWith('/')) found = { redirect: `${original.slice(original.lastIndexOf('/') + 1)}/` };
    if (found === undefined) {
      next();
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      response.end('Method Not Allowed\n');
      return;
    }
    if ('redirect' in found) {
      response.writeHead(301, { location: `${found.redirect}${query === -1 ? '' : url.slice(query)}`, 'content-type': 'text/plain; charset=utf-8' });
      response.end(request.method === 'HEAD' ? undefined : `Moved to ${found.redirect}\n`);
      return;
    }
    const { headers, body } = found;
    if (matchesEtag(request.headers['if-none-match'], headers.etag)) {
      response.writeHead(304, { etag: headers.etag, 'cache-control': headers['cache-control'] });
      response.end();
      return;
    }
    response.writeHead(200, { ...headers, 'content-length': String(body.length) });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
}

/** RFC 9110 §13.1.2: If-None-Match is `*` or a list of entity tags, compared weakly. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
