// Social accounts of users, endpoints 24–27 of spec document 2: profile URLs a user links,
// each with the provider its host names.
//
// Decisions where the spec is silent (README "Social accounts"):
// - The provider comes from the URL's host (any `www.` dropped): twitter.com and x.com
//   twitter, linkedin.com linkedin, facebook.com facebook, instagram.com instagram,
//   youtube.com youtube, reddit.com reddit, twitch.tv twitch, npmjs.com npm, and
//   `generic` for any other host.
// - A URL must be absolute http(s) with a host holding a dot, at most 2048 characters; an
//   empty list, or any URL that is not one, refuses the whole request (422, naming each).
// - Adding a URL the user has already linked, or deleting one they have not, refuses the
//   whole request (422): nothing is added twice, nothing silently ignored. The same URL
//   twice in one request counts once. URLs compare exactly as written.
// - A user links at most 100 accounts (422 beyond), so one page of 100 holds them all.
// - 304 (If-None-Match) is for the two GETs, as for every GET of the service; the spec also
//   lists it for 25 and 26, which change state and so are never "not modified".
// - Lists are in the order linked; 30 a page by default, at most 100.
import { Type } from 'typebox';
import type { AreaModule } from '../../area.js';
import { onAccount, onUser, write } from '../../auth/endpoint-access.js';
import { defineEndpoint } from '../../endpoint.js';
import { validationFailed } from '../../errors.js';
import { pageOf } from '../../pagination.js';
import type { WorldUser } from '../../world-model.js';

const NO_SCOPE = { public: [], private: [] } as const;
const OWN_READ = onUser({ anonymous: false, scopes: NO_SCOPE, permissions: [] });
const OWN_WRITE = onUser({ anonymous: false, scopes: { public: ['user'], private: ['user'] }, permissions: [write('profile')] });
const ANYONE_READ = onAccount({ anonymous: true, scopes: NO_SCOPE, permissions: [], role: 'visible' });

const MAX_ACCOUNTS = 100;
const URLS_BODY = Type.Object(
  { account_urls: Type.Array(Type.String(), { maxItems: MAX_ACCOUNTS }) },
  { title: 'SocialAccount', additionalProperties: false },
);

const PROVIDERS: Record<string, string> = {
  'twitter.com': 'twitter',
  'x.com': 'twitter',
  'linkedin.com': 'linkedin',
  'facebook.com': 'facebook',
  'instagram.com': 'instagram',
  'youtube.com': 'youtube',
  'reddit.com': 'reddit',
  'twitch.tv': 'twitch',
  'npmjs.com': 'npm',
};

/** Built-in faults of this area (suites/faults/social-accounts.yaml says what each does and breaks). */
const SOCIAL_FAULTS = [
  'social.list-wrapped',
  'social.add-200',
  'social.add-returns-all',
  'social.provider-always-generic',
  'social.invalid-url-accepted',
  'social.empty-list-accepted',
  'social.duplicate-added',
  'social.delete-ignored',
  'social.delete-absent-ignored',
  'social.user-list-empty',
] as const;

const create: AreaModule<(typeof SOCIAL_FAULTS)[number]>['create'] = ({ directory, faults }) => {
  /** Account URLs per user (lower-case login), in the order linked. */
  let accounts = new Map<string, string[]>();
  const load = () => {
    accounts = new Map(directory.world.users.map((user) => [user.login.toLowerCase(), user.social_accounts ?? []]));
  };
  /** The Social account of a URL: its provider, from the host. */
  const accountOf = (url: string) => {
    const host = new URL(url).hostname.toLowerCase().replace(/^www\./, '');
    return { provider: faults.on('social.provider-always-generic') ? 'generic' : (PROVIDERS[host] ?? 'generic'), url };
  };
  load();

  const accountsOf = (user: WorldUser) => accounts.get(user.login.toLowerCase()) ?? [];
  const refuse = (urls: string[], message: string) =>
    validationFailed(
      urls.map((url) => ({ resource: 'SocialAccount', field: 'account_urls', code: 'custom', message: `${message}: ${url}` })),
    );
  /** The request's URLs, each once; 422 for an empty list or a URL that is not a profile URL. */
  const urlsOf = (requested: readonly string[]) => {
    if (requested.length === 0 && !faults.on('social.empty-list-accepted'))
      throw validationFailed([{ resource: 'SocialAccount', field: 'account_urls', code: 'missing_field' }]);
    const invalid = requested.filter((url) => !isProfileUrl(url));
    if (invalid.length > 0 && !faults.on('social.invalid-url-accepted')) throw refuse(invalid, 'not an http(s) profile URL');
    return [...new Set(requested)].filter(isProfileUrl);
  };
  const list = (request: Parameters<typeof pageOf>[0], reply: Parameters<typeof pageOf>[1], user: WorldUser) => {
    const all = accountsOf(user).map(accountOf);
    const page = pageOf(request, reply, all);
    return faults.on('social.list-wrapped') ? { total_count: all.length, social_accounts: page } : page;
  };

  const endpoints = [
    defineEndpoint({
      spec: { document: 2, number: 24 },
      id: 'social.list-own',
      summary: 'List social accounts for the authenticated user',
      method: 'GET',
      path: '/user/social_accounts',
      responses: { 200: 'social-account[]' },
      access: OWN_READ,
      handler: (request, reply, { user }) => list(request, reply, user),
    }),
    defineEndpoint({
      spec: { document: 2, number: 25 },
      id: 'social.add',
      summary: 'Add social accounts for the authenticated user',
      method: 'POST',
      path: '/user/social_accounts',
      responses: { 201: 'social-account[]' },
      access: OWN_WRITE,
      body: URLS_BODY,
      handler: (request, reply, { user }) => {
        const urls = urlsOf(request.body.account_urls);
        const linked = accountsOf(user);
        const taken = urls.filter((url) => linked.includes(url));
        if (taken.length > 0 && !faults.on('social.duplicate-added')) throw refuse(taken, 'already linked');
        if (linked.length + urls.length > MAX_ACCOUNTS) throw refuse(urls, `a user links at most ${MAX_ACCOUNTS} accounts`);
        accounts.set(user.login.toLowerCase(), [...linked, ...urls]);
        reply.code(faults.on('social.add-200') ? 200 : 201);
        return (faults.on('social.add-returns-all') ? accountsOf(user) : urls).map(accountOf);
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 26 },
      id: 'social.delete',
      summary: 'Delete social accounts for the authenticated user',
      method: 'DELETE',
      path: '/user/social_accounts',
      responses: { 204: 'empty' },
      access: OWN_WRITE,
      body: URLS_BODY,
      handler: (request, reply, { user }) => {
        const urls = urlsOf(request.body.account_urls);
        const linked = accountsOf(user);
        const absent = urls.filter((url) => !linked.includes(url));
        if (absent.length > 0 && !faults.on('social.delete-absent-ignored')) throw refuse(absent, 'not linked');
        if (!faults.on('social.delete-ignored'))
          accounts.set(
            user.login.toLowerCase(),
            linked.filter((url) => !urls.includes(url)),
          );
        return reply.code(204).send();
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 27 },
      id: 'social.list-user',
      summary: 'List social accounts for a user',
      method: 'GET',
      path: '/users/:username/social_accounts',
      responses: { 200: 'social-account[]' },
      access: ANYONE_READ,
      handler: (request, reply, { user }) => (faults.on('social.user-list-empty') ? [] : list(request, reply, user)),
    }),
  ];

  return { name: 'social-accounts', endpoints, reset: load, state: () => accounts };
};

/** An absolute http(s) URL with a dotted host, at most 2048 characters. */
function isProfileUrl(text: string): boolean {
  if (text.length > 2048 || !/^https?:\/\//i.test(text)) return false;
  try {
    return new URL(text).hostname.includes('.');
  } catch {
    return false;
  }
}

export const socialAccounts = { name: 'social-accounts', faults: SOCIAL_FAULTS, create } satisfies AreaModule;
