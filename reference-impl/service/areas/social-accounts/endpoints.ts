// Social accounts of users, endpoints 24–27 of spec document 2: profile URLs a user links,
// each with the provider its host names.
//
// Decisions where the spec is silent (README "Social accounts"), with the built-in
// variation that makes each otherwise (suites/variants/social-accounts.yaml):
// - The provider comes from the URL's host (any `www.` dropped): twitter.com and x.com
//   twitter, linkedin.com linkedin, facebook.com facebook, instagram.com instagram,
//   youtube.com youtube, reddit.com reddit, twitch.tv twitch, npmjs.com npm, and
//   `generic` for any other host ("provider string" lists none: social.provider-generic-only
//   names every one generic).
// - A URL must be absolute http(s) with a host holding a dot, at most 2048 characters; any
//   string that is not one refuses the whole request (422, naming each). So does an empty
//   list ("array of strings required" is met by []: social.empty-list-noop takes it as
//   nothing to do, 201 [] or 204).
// - Adding a URL the user has already linked, or deleting one they have not, refuses the
//   whole request (422): nothing is added twice, nothing silently ignored (the spec lists a
//   422 for 25 and 26 without saying when: social.duplicate-accepted keeps the link there
//   and answers 201, social.absent-delete-accepted deletes the others and answers 204). The
//   same URL twice in one request counts once. URLs compare exactly as written.
// - 25 answers the accounts added ("201 array of Social account" says no more:
//   social.add-answers-all answers every account of the user).
// - A user links at most 100 accounts (422 beyond), so one page of 100 holds them all.
// - 304 (If-None-Match) is for the two GETs, as for every GET of the service; the spec also
//   lists it for 25 and 26, which change state and so are never "not modified".
// - Lists are in the order linked (no order is given: social.lists-newest-first lists the
//   last linked first); 30 a page by default, at most 100.
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

const create: AreaModule['create'] = ({ directory, faults, variants }) => {
  /** Account URLs per user (lower-case login), in the order linked. */
  let accounts = new Map<string, string[]>();
  const load = () => {
    accounts = new Map(directory.world.users.map((user) => [user.login.toLowerCase(), user.social_accounts ?? []]));
  };
  /** The Social account of a URL: its provider, from the host. */
  const accountOf = (url: string) => {
    const host = new URL(url).hostname.toLowerCase().replace(/^www\./, '');
    return { provider: variants.on('social.provider-generic-only') ? 'generic' : (PROVIDERS[host] ?? 'generic'), url };
  };
  load();

  const accountsOf = (user: WorldUser) => accounts.get(user.login.toLowerCase()) ?? [];
  /** A user's accounts as the lists show them: in the order linked, or the last linked first. */
  const listed = (user: WorldUser) => {
    const linked = accountsOf(user).map(accountOf);
    return variants.on('social.lists-newest-first') ? linked.reverse() : linked;
  };
  const refuse = (urls: string[], message: string) =>
    validationFailed(
      urls.map((url) => ({ resource: 'SocialAccount', field: 'account_urls', code: 'custom', message: `${message}: ${url}` })),
    );
  /** The request's URLs, each once; 422 for an empty list or a URL that is not a profile URL. */
  const urlsOf = (requested: readonly string[]) => {
    if (requested.length === 0 && !variants.on('social.empty-list-noop'))
      throw validationFailed([{ resource: 'SocialAccount', field: 'account_urls', code: 'missing_field' }]);
    const invalid = requested.filter((url) => !isProfileUrl(url));
    if (invalid.length > 0 && !faults.on('social.invalid-url-accepted')) throw refuse(invalid, 'not an http(s) profile URL');
    return [...new Set(requested)].filter(isProfileUrl);
  };
  const list = (request: Parameters<typeof pageOf>[0], reply: Parameters<typeof pageOf>[1], user: WorldUser) => {
    const all = listed(user);
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
        // With social.duplicate-accepted a URL already linked stays linked once, and is answered with the rest.
        if (taken.length > 0 && !variants.on('social.duplicate-accepted')) throw refuse(taken, 'already linked');
        const fresh = urls.filter((url) => !linked.includes(url));
        if (linked.length + fresh.length > MAX_ACCOUNTS) throw refuse(urls, `a user links at most ${MAX_ACCOUNTS} accounts`);
        accounts.set(user.login.toLowerCase(), [...linked, ...fresh]);
        reply.code(faults.on('social.add-200') ? 200 : 201);
        return variants.on('social.add-answers-all') ? listed(user) : urls.map(accountOf);
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
        // With social.absent-delete-accepted a URL not linked is nothing to delete.
        if (absent.length > 0 && !variants.on('social.absent-delete-accepted')) throw refuse(absent, 'not linked');
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

export const socialAccounts = { name: 'social-accounts', create } satisfies AreaModule;
