// Who is calling, and whether their token grants what an endpoint needs (spec 1, Authentication).
import { HttpError, credentials } from './http-util.js';

// A classic scope also grants the narrower scopes listed under it.
const IMPLIED = {
  'admin:org': ['write:org', 'read:org'],
  'write:org': ['read:org'],
  user: ['read:user', 'user:email', 'user:follow'],
  repo: ['public_repo', 'repo:status', 'repo_deployment', 'repo:invite'],
};
const LEVELS = { none: 0, read: 1, write: 2, admin: 3 };
const SCOPED_KINDS = new Set(['classic', 'oauth']);

/** The token record of the request (null when anonymous); 401 for credentials the service does not know. */
export function authenticate(req, state) {
  const cred = credentials(req);
  if (!cred) return null;
  const token = state.tokens.get(cred.token);
  if (!token || token.expired) throw new HttpError(401, 'Bad credentials');
  if (token.kind === 'jwt' && cred.scheme !== 'bearer') throw new HttpError(401, 'A JSON web token must use the Bearer scheme');
  return token;
}

/** The user acting: 401 when anonymous, 403 when the token acts for no user (an installation, a JWT). */
export function requireUser(ctx) {
  if (!ctx.auth) throw new HttpError(401, 'Requires authentication');
  const user = ctx.auth.userId !== undefined ? ctx.state.usersById.get(ctx.auth.userId) : undefined;
  if (!user) throw new HttpError(403, 'Resource not accessible by integration');
  return user;
}

function hasScope(scopes, wanted) {
  return scopes.some((s) => s === wanted || (IMPLIED[s] ?? []).includes(wanted));
}

function hasPermission(permissions, [name, level]) {
  return (LEVELS[permissions[name]] ?? 0) >= LEVELS[level];
}

/**
 * 403 unless the token grants the endpoint's needs: for classic and OAuth tokens one of `scopes`,
 * for fine-grained and app tokens `permission` (and `alsoPermission` when given).
 */
export function requireGrant(ctx, { scopes, permission, alsoPermission }) {
  const t = ctx.auth;
  if (!t) throw new HttpError(401, 'Requires authentication');
  const ok = SCOPED_KINDS.has(t.kind)
    ? scopes.some((s) => hasScope(t.scopes, s))
    : hasPermission(t.permissions, permission) && (!alsoPermission || hasPermission(t.permissions, alsoPermission));
  if (!ok) {
    const need = SCOPED_KINDS.has(t.kind) ? `scope ${scopes.join(' or ')}` : `permission ${permission.join(' ')}`;
    throw new HttpError(403, `Resource not accessible with this token: it needs ${need}`);
  }
}
