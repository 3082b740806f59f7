// Social accounts (spec 2, endpoints 24 to 27).
import { requireGrant, requireUser } from './auth.js';
import { HttpError, pageParams, paginate, readJsonObject, sendEmpty, sendJson, validationError } from './http-util.js';

const PROVIDERS = [
  [/(^|\.)(twitter|x)\.com$/, 'twitter'],
  [/(^|\.)facebook\.com$/, 'facebook'],
  [/(^|\.)instagram\.com$/, 'instagram'],
  [/(^|\.)linkedin\.com$/, 'linkedin'],
  [/(^|\.)youtube\.com$/, 'youtube'],
  [/(^|\.)reddit\.com$/, 'reddit'],
  [/(^|\.)twitch\.tv$/, 'twitch'],
  [/(^|\.)npmjs\.com$/, 'npm'],
  [/(^|\.)bsky\.app$/, 'bluesky'],
];

/** The provider a profile URL belongs to, from its host ("generic" for any other site). */
export function providerOf(url) {
  const { hostname, pathname } = new URL(url);
  const known = PROVIDERS.find(([re]) => re.test(hostname.toLowerCase()))?.[1];
  return known ?? (pathname.startsWith('/@') ? 'mastodon' : 'generic');
}

/** Profile-write grant of endpoints 25 and 26: scope user, or Profile (write). */
const PROFILE_WRITE = { scopes: ['user'], permission: ['profile', 'write'] };

function isProfileUrl(value) {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.includes('.');
  } catch {
    return false;
  }
}

/** account_urls of a body: a non-empty array of full profile URLs, else 422. */
function accountUrls(body) {
  const urls = body.account_urls;
  if (urls === undefined) throw validationError('account_urls', 'missing_field', 'account_urls is required');
  if (!Array.isArray(urls)) throw validationError('account_urls', 'invalid', 'account_urls must be an array of strings');
  if (urls.length === 0) throw validationError('account_urls', 'invalid', 'account_urls must not be empty');
  const bad = urls.find((u) => !isProfileUrl(u));
  if (bad !== undefined) throw validationError('account_urls', 'invalid', `not a full profile URL: ${JSON.stringify(bad)}`);
  return urls;
}

function accountsOf(state, login) {
  const key = login.toLowerCase();
  if (!state.socialAccounts.has(key)) state.socialAccounts.set(key, []);
  return state.socialAccounts.get(key);
}

function listPage({ req, res, url }, accounts) {
  const { slice, headers } = paginate(req, url, accounts, pageParams(url, 100));
  sendJson(req, res, 200, slice.map(({ provider, url: u }) => ({ provider, url: u })), headers);
}

async function listOwn(ctx) {
  const who = requireUser(ctx);
  listPage(ctx, accountsOf(ctx.state, who.login));
}

async function listOfUser(ctx) {
  const user = ctx.state.users.get(ctx.params.username.toLowerCase());
  if (!user) throw new HttpError(404, 'Not Found');
  listPage(ctx, accountsOf(ctx.state, user.login));
}

async function add(ctx) {
  const who = requireUser(ctx);
  requireGrant(ctx, PROFILE_WRITE);
  const urls = accountUrls(await readJsonObject(ctx.req));
  const accounts = accountsOf(ctx.state, who.login);
  const seen = new Set(accounts.map((a) => a.url));
  for (const u of urls) {
    if (seen.has(u)) throw validationError('account_urls', 'already_exists', `already linked: ${u}`);
    seen.add(u);
  }
  const added = urls.map((u) => ({ provider: providerOf(u), url: u }));
  accounts.push(...added);
  sendJson(ctx.req, ctx.res, 201, added);
}

async function remove(ctx) {
  const who = requireUser(ctx);
  requireGrant(ctx, PROFILE_WRITE);
  const urls = new Set(accountUrls(await readJsonObject(ctx.req)));
  const accounts = accountsOf(ctx.state, who.login);
  const kept = accounts.filter((a) => !urls.has(a.url));
  accounts.splice(0, accounts.length, ...kept);
  sendEmpty(ctx.req, ctx.res);
}

export const routes = [
  ['GET', '/user/social_accounts', listOwn],
  ['POST', '/user/social_accounts', add],
  ['DELETE', '/user/social_accounts', remove],
  ['GET', '/users/:username/social_accounts', listOfUser],
];
