'use strict';
/**
 * The app's own authentication, as it was before OData arrived: a Bearer token maps to a user
 * with roles, stored on `req.user`. The OData provider reads that user from
 * `context.request.user`; the service itself knows nothing about authentication.
 */

/** Demo users by token. A Map, so a token such as `__proto__` is just an unknown token. */
const USERS = new Map([
  ['alice-token', { name: 'alice', roles: ['sales', 'finance'] }],
  ['bob-token', { name: 'bob', roles: ['sales'] }],
]);

/** Express middleware: 401 without a known Bearer token, else `req.user`. */
function authenticate(users = USERS) {
  return (req, res, next) => {
    const match = /^Bearer ([\w.-]+)$/i.exec(req.headers.authorization || '');
    const user = match === null ? undefined : users.get(match[1]);
    if (user === undefined) {
      res.status(401).set('WWW-Authenticate', 'Bearer realm="acme"').json({ error: 'Sign in with an Authorization: Bearer token.' });
      return;
    }
    req.user = user;
    next();
  };
}

module.exports = { authenticate };
