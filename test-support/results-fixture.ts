// A realistic results.json for the renderers' tests: one case of every outcome, a failure
// with its full exchange and reproduction command, an exchange that never got an answer, and a requirement no
// case cites. A factory, so a test can mutate its copy without touching another test's.
import { sha256 } from '../harness/core/fingerprint.js';
import type { CaseResult, Outcome, RequirementResult, Results } from '../harness/core/results.js';

export const FIXTURE_TARGET = 'https://impl.example';
const ASSIGNEES = 'GET /repos/{owner}/{repo}/assignees';
const REPO_LIMITS = 'PUT /repos/{owner}/{repo}/interaction-limits';

export function createResultsFixture(): Results {
  const listed: Omit<CaseResult, 'started_at'>[] = [
    {
      id: 'assignees/list-returns-users',
      suite: 'assignees',
      title: 'GET assignees returns the users who can be assigned',
      outcome: 'PASS',
      level: 'MUST',
      requirements: ['assignees.list-returns-users'],
      endpoints: [ASSIGNEES],
      aspects: ['status', 'schema'],
      role: 'reader',
      duration_ms: 41,
    },
    {
      id: 'assignees/single-page-omits-link',
      suite: 'assignees',
      title: 'GET assignees with every result on one page omits the link header',
      outcome: 'FAIL',
      level: 'MUST',
      requirements: ['pagination.link-omitted-single-page'],
      endpoints: [ASSIGNEES],
      aspects: ['pagination'],
      role: 'reader',
      duration_ms: 57,
      message: 'pagination.link-omitted-single-page: expected no link header, got link: <…&page=1>; rel="first"',
      broken: ['pagination.link-omitted-single-page'],
      failure: {
        requirement: 'pagination.link-omitted-single-page',
        expected: 'no link header (2 assignees fit on one page of 100)',
        actual: 'link: <https://impl.example/repos/octo-org/hello-world/assignees?per_page=100&page=1>; rel="first"',
        exchange: {
          request: {
            method: 'GET',
            url: `${FIXTURE_TARGET}/repos/octo-org/hello-world/assignees?per_page=100`,
            headers: [
              ['accept', 'application/vnd.service+json'],
              ['authorization', 'Bearer $TOKEN'],
            ],
          },
          response: {
            status: 200,
            headers: [
              ['content-type', 'application/json; charset=utf-8'],
              ['link', '<https://impl.example/repos/octo-org/hello-world/assignees?per_page=100&page=1>; rel="first"'],
              ['X-Request-Id', '7f3c2a91-req'],
            ],
            body: '[{"login":"octocat","id":1,"type":"User","site_admin":false},{"login":"hubot","id":2,"type":"Bot","site_admin":false}]',
          },
        },
        reproduce: `curl -sS -i -H 'accept: application/vnd.service+json' -H "authorization: Bearer $TOKEN" '${FIXTURE_TARGET}/repos/octo-org/hello-world/assignees?per_page=100'`,
      },
    },
    {
      id: 'assignees/per-page-max',
      suite: 'assignees',
      title: 'GET assignees with per_page=101 returns at most 100 users',
      outcome: 'PASS',
      level: 'MUST',
      requirements: ['pagination.per-page-max'],
      endpoints: [ASSIGNEES],
      aspects: ['pagination'],
      role: 'reader',
      duration_ms: 63,
    },
    {
      id: 'conventions/vnd-media-type',
      suite: 'conventions',
      title: 'GET assignees with the recommended media type answers in it',
      outcome: 'WARN',
      level: 'SHOULD',
      requirements: ['conventions.media-type-recommended'],
      endpoints: [ASSIGNEES],
      aspects: ['status'],
      role: 'reader',
      duration_ms: 38,
      message: 'conventions.media-type-recommended: expected content-type application/vnd.service+json, got text/plain',
      broken: ['conventions.media-type-recommended'],
      failure: {
        requirement: 'conventions.media-type-recommended',
        expected: 'content-type: application/vnd.service+json',
        actual: 'content-type: text/plain',
        reproduce: `curl -sS -i -H 'accept: application/vnd.service+json' '${FIXTURE_TARGET}/repos/octo-org/hello-world/assignees'`,
      },
    },
    {
      id: 'interaction-limits/expiry-defaults-one-day',
      suite: 'interaction-limits',
      title: 'PUT repository interaction-limits without expiry expires after one day',
      outcome: 'SKIP',
      level: 'MUST',
      requirements: ['interaction-limits.expiry-default-one-day'],
      endpoints: [REPO_LIMITS],
      aspects: ['state'],
      role: 'repo-admin',
      duration_ms: 2,
      message: 'the target lacks capability control.clock',
      missing: { capabilities: ['control.clock'] },
    },
    {
      id: 'git-blobs/content-base64',
      suite: 'git-blobs',
      title: 'GET a blob returns its content in Base64',
      outcome: 'ERROR',
      level: 'MUST',
      requirements: ['git-blobs.content-base64'],
      endpoints: ['GET /repos/{owner}/{repo}/git/blobs/{file_sha}'],
      aspects: ['schema'],
      role: 'reader',
      duration_ms: 30_004,
      message: 'TARGET_IO: socket hang up after 30000 ms\n    at request (harness/http/target-client.ts:88:11)',
      failure: {
        requirement: 'git-blobs.content-base64',
        expected: 'a 200 response with a Blob',
        actual: 'no response: socket hang up',
        exchange: {
          request: {
            method: 'GET',
            url: `${FIXTURE_TARGET}/repos/octo-org/hello-world/git/blobs/3a0f86fb8db8eea7ccbb9a95f325ddbedfb25e15`,
            headers: [['accept', 'application/vnd.service+json']],
          },
        },
      },
    },
    {
      id: 'interaction-limits/org-put-invalid-limit-422',
      suite: 'interaction-limits',
      title: 'PUT organization interaction-limits with an unknown limit returns 422',
      outcome: 'XFAIL',
      level: 'MUST',
      requirements: ['interaction-limits.org-put-422'],
      endpoints: ['PUT /orgs/{org}/interaction-limits'],
      aspects: ['status'],
      role: 'org-owner',
      duration_ms: 45,
      message: 'known failure (the 422 is planned for 2.0): MUST interaction-limits.org-put-422: expected status 422, got status 400',
      failure: { requirement: 'interaction-limits.org-put-422', expected: 'status 422', actual: 'status 400' },
      broken: ['interaction-limits.org-put-422'],
    },
    {
      id: 'auth/anonymous-put-limits-401',
      suite: 'auth',
      title: 'PUT repository interaction-limits without a token returns 401',
      outcome: 'PASS',
      level: 'MUST',
      requirements: ['errors.401-authentication-required'],
      endpoints: [REPO_LIMITS],
      aspects: ['auth'],
      role: 'anonymous',
      duration_ms: 19,
    },
  ];
  // One after the other from the run's start, each taking its duration.
  let clock = Date.parse('2025-11-22T12:00:00.000Z');
  const cases: CaseResult[] = listed.map((c) => {
    const started_at = new Date(clock).toISOString();
    clock += c.duration_ms;
    return { ...c, started_at };
  });
  const requirements: Omit<RequirementResult, 'quote_sha256'>[] = [
    {
      id: 'assignees.list-returns-users',
      level: 'MUST',
      basis: 'quoted',
      source: 'spec 1 § Issue assignees, endpoint 6',
      quote:
        '| 6 | GET /repos/{owner}/{repo}/assignees | query per_page (max 100, default 30), page (default 1) | 200 array of User; 404 |',
      cases: ['assignees/list-returns-users'],
      status: 'PASS',
    },
    {
      id: 'pagination.link-omitted-single-page',
      level: 'MUST',
      basis: 'quoted',
      source: 'spec 1 § Pagination',
      quote: 'When the endpoint is not paginated, or all results fit on one page, the `link` header is omitted.',
      cases: ['assignees/single-page-omits-link'],
      status: 'FAIL',
    },
    {
      id: 'pagination.per-page-max',
      level: 'MUST',
      basis: 'quoted',
      source: 'spec 1 § Common request parameters',
      quote: '| per_page | query | integer | results per page, max 100, default 30 (exceptions stated per endpoint) |',
      cases: ['assignees/per-page-max'],
      status: 'PASS',
    },
    {
      id: 'conventions.media-type-recommended',
      level: 'SHOULD',
      basis: 'quoted',
      source: 'spec 1 § Common request parameters',
      quote: 'media type; `application/vnd.service+json` is recommended; several media types may be comma-separated',
      cases: ['conventions/vnd-media-type'],
      status: 'WARN',
    },
    {
      id: 'interaction-limits.expiry-default-one-day',
      level: 'MUST',
      basis: 'quoted',
      source: 'spec 1 § Interaction restrictions, endpoint 28',
      quote: 'expiry string (one_day default, three_days, one_week, one_month, six_months)',
      cases: ['interaction-limits/expiry-defaults-one-day'],
      status: 'UNTESTED',
      missing: { capabilities: ['control.clock'] },
    },
    {
      id: 'git-blobs.content-base64',
      level: 'MUST',
      basis: 'quoted',
      source: 'spec 1 § Git blobs, endpoint 22',
      quote: '200 Blob (content always Base64 in the default media type)',
      cases: ['git-blobs/content-base64'],
      status: 'ERROR',
    },
    {
      id: 'interaction-limits.org-put-422',
      level: 'MUST',
      basis: 'quoted',
      source: 'spec 1 § Interaction restrictions, endpoint 31',
      quote: '| 31 | PUT /orgs/{org}/interaction-limits | body limit required; expiry | 200 Interaction limit; 422 |',
      cases: ['interaction-limits/org-put-invalid-limit-422'],
      status: 'XFAIL',
    },
    {
      id: 'errors.401-authentication-required',
      level: 'MUST',
      basis: 'quoted',
      source: 'spec 1 § Errors',
      quote: '| 401 | authentication required |',
      cases: ['auth/anonymous-put-limits-401'],
      status: 'PASS',
    },
    {
      id: 'interaction-limits.repo-409-owner-limit',
      level: 'MUST',
      basis: 'quoted',
      source: 'spec 1 § Interaction restrictions, state machine',
      quote: '| any (repository) | PUT or DELETE on the repository | a limit is set on the owning user or organization | unchanged | 409 |',
      cases: [],
      status: 'UNTESTED',
    },
  ];

  return {
    format: 'touchstone-results/2',
    tool: { name: 'touchstone', version: '0.1.0' },
    fingerprint: {
      suites: sha256('suites'),
      requirements: sha256('requirements'),
      config: sha256('config'),
    },
    kind: 'service',
    target: { url: FIXTURE_TARGET, embedded: false },
    started_at: '2025-11-22T12:00:00.000Z',
    finished_at: '2025-11-22T12:00:31.250Z',
    duration_ms: 31_250,
    strict: false,
    verdict: 'non-conforming',
    scope: { suites: [] },
    gaps: {
      untested: ['interaction-limits.expiry-default-one-day', 'interaction-limits.repo-409-owner-limit'],
      roles: [],
      capabilities: ['control.clock'],
      errors: ['git-blobs/content-base64'],
    },
    // The SKIP and ERROR cases exercised nothing; the requirement no case cites and the skipped one are unchecked.
    coverage: {
      requirements: { covered: 7, total: 9 },
      endpoints: { covered: 3, total: 4 },
      endpoint_aspects: { covered: 5, total: 7 },
    },
    summary: { PASS: 3, FAIL: 1, WARN: 1, SKIP: 1, ERROR: 1, XFAIL: 1, total: 8 },
    requirements: requirements.map((r) => ({ ...r, quote_sha256: sha256(r.quote) })),
    cases,
  };
}

/** The fixture with some cases' outcomes (and the requirements they decide) changed. */
export function withOutcomes(changes: Record<string, Outcome>): Results {
  const results = createResultsFixture();
  for (const c of results.cases) if (changes[c.id]) Object.assign(c, { outcome: changes[c.id], message: `now ${changes[c.id]}` });
  for (const r of results.requirements) {
    const decided = r.cases.map((id) => changes[id]).find(Boolean);
    // As build-results: a skipped case checked nothing, so the requirement it decides is UNTESTED.
    if (decided) r.status = decided === 'SKIP' ? 'UNTESTED' : decided;
  }
  return results;
}
