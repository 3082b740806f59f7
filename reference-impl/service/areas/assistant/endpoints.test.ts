// Endpoints 1–9 of spec 2: the assistant subscription, its seats (the Seat state machine on
// the clock, which starts 2026-06-01T12:00Z inside the June billing cycle) and the metrics.
// octo-org: seats for hubot, mojombo, wanstrath (direct), monalisa and defunkt (through
// core) and the invitee pjhyett; octo-labs: 106 seats, teams platform (5), tools (4) and
// newcomers (2, unseated).
import { expect, expectErrorBody, test } from '../../service.fixture.js';

const BILLING = (org = 'octo-org') => `/orgs/${org}/assistant/billing`;
const SEATS = (org = 'octo-org') => `${BILLING(org)}/seats`;
const TEAMS = (org = 'octo-org') => `${BILLING(org)}/selected_teams`;
const USERS = (org = 'octo-org') => `${BILLING(org)}/selected_users`;
const SEAT = (login: string, org = 'octo-org') => `/orgs/${org}/members/${login}/assistant`;
const METRICS = (org = 'octo-org') => `/orgs/${org}/assistant/metrics`;
const owner = { as: 'org-owner' };

test('billing: the settings, with a breakdown whose total is the seats listed, active plus inactive', async ({ api }) => {
  const billing = await api.get(BILLING(), owner);
  expect(billing.statusCode).toBe(200);
  const body = billing.json();
  expect(body).toMatchObject({ seat_management_setting: 'assign_selected', public_code_suggestions: 'block', plan_type: 'business' });
  const breakdown = body.seat_breakdown;
  expect(breakdown).toEqual({
    total: 6,
    added_this_cycle: 0,
    pending_invitation: 1,
    pending_cancellation: 0,
    active_this_cycle: 0,
    inactive_this_cycle: 6,
  });
  // Activity from June on (the clock's cycle) makes seats active this cycle.
  await api.advance(10 * 86_400);
  const later = (await api.get(BILLING(), owner)).json().seat_breakdown;
  expect(later.active_this_cycle).toBeGreaterThan(0);
  expect(later.active_this_cycle + later.inactive_this_cycle).toBe(later.total);
  expectErrorBody(await api.get(BILLING('asst-payment-problem'), owner), 422, /payment method/);
  expectErrorBody(await api.get(BILLING('asst-no-subscription'), owner), 404);
  expectErrorBody(await api.get(SEATS('asst-no-subscription'), owner), 404);
});

test('seats: {total_seats, seats}, 50 a page by default and at most 100, with link pages', async ({ api }) => {
  const first = await api.get(SEATS('octo-labs'), owner);
  expect(first.json().total_seats).toBe(106);
  expect(first.json().seats).toHaveLength(50);
  expect(first.headers.link).toContain('page=3>; rel="last"');
  const max = await api.get(`${SEATS('octo-labs')}?per_page=500&page=2`, owner);
  expect(max.json().seats).toHaveLength(6);
  const seat = (await api.get(SEATS(), owner)).json().seats.find((s: { assignee: { login: string } }) => s.assignee.login === 'monalisa');
  expect(seat).toMatchObject({
    pending_cancellation_date: null,
    last_activity_editor: 'jetbrains/2024.3',
    assigning_team: { slug: 'core', parent: null },
  });
});

test('users: cancel → pending until the cycle ends, assign again → refreshed and counted, after the cycle → gone', async ({ api }) => {
  expect((await api.call('DELETE', USERS(), { ...owner, body: { selected_usernames: ['mojombo', 'mojombo'] } })).json()).toEqual({
    seats_cancelled: 1,
  });
  const pending = (await api.get(SEAT('mojombo'), owner)).json();
  expect(pending).toMatchObject({
    pending_cancellation_date: '2026-06-30',
    updated_at: '2026-06-01T12:00:00Z',
    created_at: '2026-05-01T09:00:00Z',
  });
  // Already pending: nothing more to cancel.
  expect((await api.call('DELETE', USERS(), { ...owner, body: { selected_usernames: ['mojombo'] } })).json()).toEqual({
    seats_cancelled: 0,
  });
  await api.advance(3600);
  const again = await api.call('POST', USERS(), { ...owner, body: { selected_usernames: ['mojombo', 'hubot'] } });
  expect(again.statusCode).toBe(201);
  expect(again.json()).toEqual({ seats_created: 1 });
  expect((await api.get(SEAT('mojombo'), owner)).json()).toMatchObject({
    pending_cancellation_date: null,
    created_at: '2026-05-01T09:00:00Z',
  });

  await api.call('DELETE', USERS(), { ...owner, body: { selected_usernames: ['hubot'] } });
  await api.advance(29 * 86_400 + 11 * 3600 - 1); // from 13:00 on June 1 to 2026-06-30T23:59:59Z, the last second of the cycle
  expect((await api.get(SEAT('hubot'), owner)).statusCode).toBe(200);
  await api.advance(1);
  expectErrorBody(await api.get(SEAT('hubot'), owner), 404, /no assistant seat/);
  expect((await api.get(SEATS(), owner)).json().total_seats).toBe(5);
  // Assigned after it is gone: a new seat, made now.
  expect((await api.call('POST', USERS(), { ...owner, body: { selected_usernames: ['hubot'] } })).json()).toEqual({ seats_created: 1 });
  expect((await api.get(SEAT('hubot'), owner)).json().created_at).toBe('2026-07-01T00:00:00Z');
});

test('teams: nested members are seated; a seat held through another team or directly is kept', async ({ api }) => {
  // newcomers: two members without a seat.
  expect((await api.call('POST', TEAMS('octo-labs'), { ...owner, body: { selected_teams: ['Newcomers'] } })).json()).toEqual({
    seats_created: 2,
  });
  // frontend (defunkt, mojombo) and nested frontend-web (wanstrath) all hold seats already.
  expect((await api.call('POST', TEAMS(), { ...owner, body: { selected_teams: ['frontend'] } })).json()).toEqual({ seats_created: 0 });
  // core: monalisa goes; defunkt keeps the seat through frontend.
  expect((await api.call('DELETE', TEAMS(), { ...owner, body: { selected_teams: ['core'] } })).json()).toEqual({ seats_cancelled: 1 });
  expect((await api.get(SEAT('defunkt'), owner)).json()).toMatchObject({
    pending_cancellation_date: null,
    assigning_team: { slug: 'frontend' },
  });
  expect((await api.get(SEAT('monalisa'), owner)).json().pending_cancellation_date).toBe('2026-06-30');
  // frontend: defunkt goes; mojombo and wanstrath keep their direct seats.
  expect((await api.call('DELETE', TEAMS(), { ...owner, body: { selected_teams: ['frontend'] } })).json()).toEqual({ seats_cancelled: 1 });
  expect((await api.get(SEAT('wanstrath'), owner)).json().pending_cancellation_date).toBeNull();
});

test('422: each unmet condition alone refuses 3–6; unknown names and team-held seats refuse the whole request', async ({ api }) => {
  const conditions = ['asst-no-subscription', 'asst-no-billing', 'asst-no-policy', 'asst-access-all', 'asst-access-unconfigured'];
  for (const org of conditions) {
    expectErrorBody(await api.call('POST', TEAMS(org), { ...owner, body: { selected_teams: ['crew'] } }), 422);
    expectErrorBody(await api.call('DELETE', TEAMS(org), { ...owner, body: { selected_teams: ['crew'] } }), 422);
    expectErrorBody(await api.call('POST', USERS(org), { ...owner, body: { selected_usernames: ['monalisa'] } }), 422);
    expectErrorBody(await api.call('DELETE', USERS(org), { ...owner, body: { selected_usernames: ['monalisa'] } }), 422);
  }
  const unknown = await api.call('POST', USERS('octo-labs'), { ...owner, body: { selected_usernames: ['octocat', 'mojombo', 'nobody'] } });
  expect(expectErrorBody(unknown, 422).errors).toEqual([
    { resource: 'AssistantSeat', field: 'selected_usernames', code: 'custom', message: 'not found: mojombo' },
    { resource: 'AssistantSeat', field: 'selected_usernames', code: 'custom', message: 'not found: nobody' },
  ]);
  expectErrorBody(await api.get(SEAT('octocat', 'octo-labs'), owner), 404);
  expectErrorBody(await api.call('POST', TEAMS(), { ...owner, body: { selected_teams: ['core', 'ghosts'] } }), 422);
  const teamHeld = await api.call('DELETE', USERS(), { ...owner, body: { selected_usernames: ['mojombo', 'monalisa'] } });
  expectErrorBody(teamHeld, 422, /through a team.*monalisa/);
  expect((await api.get(SEAT('mojombo'), owner)).json().pending_cancellation_date).toBeNull();
  expectErrorBody(await api.call('POST', USERS(), { ...owner, body: { selected_usernames: [] } }), 422);
});

test('member seat: 404 for a non-member, 422 for an invitee or a disabled subscription', async ({ api }) => {
  expectErrorBody(await api.get(SEAT('octocat'), owner), 404);
  expectErrorBody(await api.get(SEAT('pjhyett'), owner), 422, /pending invitation/);
  expectErrorBody(await api.get(SEAT('monalisa', 'asst-no-subscription'), owner), 422, /not enabled/);
});

test('metrics: days with five licensed members, up to yesterday, since/until by day, 28 a page', async ({ api }) => {
  const days = (await api.get(METRICS(), owner)).json().map((day: { date: string }) => day.date);
  // wanstrath's seat, the fifth, starts 2026-05-20.
  expect(days[0]).toBe('2026-05-20');
  expect(days.at(-1)).toBe('2026-05-31');
  expect(days).toHaveLength(12);
  const between = await api.get(`${METRICS()}?since=2026-05-22T23:00:00-02:00&until=2026-05-25`, owner);
  expect(between.json().map((day: { date: string }) => day.date)).toEqual(['2026-05-23', '2026-05-24', '2026-05-25']);
  for (const bad of ['yesterday', '2026-02-30', '2026-02-30T00:00:00Z', '2026-05-22T25:00:00Z', '2026-05-22T10:00:00', '20260522'])
    expectErrorBody(await api.get(`${METRICS()}?since=${bad}`, owner), 422);
  const labs = await api.get(`${METRICS('octo-labs')}?per_page=10&page=3`, owner);
  expect(labs.json().map((day: { date: string }) => day.date)).toEqual(Array.from({ length: 8 }, (_, i) => `2026-05-${24 + i}`));
  expect(labs.headers.link).toContain('rel="first"');
  expect((await api.get(`${METRICS('octo-labs')}?per_page=100`, owner)).json()).toHaveLength(28);
  for (const day of (await api.get(METRICS('octo-labs'), owner)).json()) {
    expect(day.total_engaged_users).toBeLessThanOrEqual(day.total_active_users);
    expect(day.assistant_ide_code_completions.total_engaged_users).toBeLessThanOrEqual(day.total_engaged_users);
  }
  // wanstrath cancels: licensed to the end of June, so 2026-07-01 has four members.
  await api.call('DELETE', USERS(), { ...owner, body: { selected_usernames: ['wanstrath'] } });
  await api.advance(31 * 86_400);
  const july = (await api.get(METRICS(), owner)).json().map((day: { date: string }) => day.date);
  expect(july.at(-1)).toBe('2026-06-30');
});

test('team metrics: the team members only, five or more; 404 for an unknown team; 422 with a policy off', async ({ api }) => {
  expect((await api.get('/orgs/octo-labs/team/platform/assistant/metrics', owner)).json()).toHaveLength(28);
  expect((await api.get('/orgs/octo-labs/team/tools/assistant/metrics', owner)).json()).toEqual([]);
  expectErrorBody(await api.get('/orgs/octo-labs/team/ghosts/assistant/metrics', owner), 404);
  expectErrorBody(await api.get(METRICS('asst-metrics-off'), owner), 422, /policy/);
  expectErrorBody(await api.get(METRICS('asst-enterprise-metrics-off'), owner), 422, /policy/);
});

test('who may: owners; the enterprise owner and billing manager see metrics only; scopes and permissions', async ({ api }) => {
  for (const as of ['enterprise-owner', 'enterprise-billing-manager', 'fine-grained-assistant-reader', 'org-reader-scope'])
    expect((await api.get(METRICS(), { as })).statusCode).toBe(200);
  for (const as of ['enterprise-owner', 'enterprise-billing-manager', 'org-member-admin-scope'])
    expectErrorBody(await api.get(BILLING(), { as }), 403);
  expectErrorBody(await api.get(METRICS(), { as: 'org-member-admin-scope' }), 403);
  expect((await api.get(BILLING(), { as: 'assistant-manager' })).statusCode).toBe(200);
  expect((await api.get(BILLING(), { as: 'fine-grained-assistant-reader' })).statusCode).toBe(200);
  expectErrorBody(await api.call('POST', USERS(), { as: 'org-reader-scope', body: { selected_usernames: ['hubot'] } }), 403);
  expectErrorBody(await api.call('POST', USERS(), { as: 'fine-grained-assistant-reader', body: { selected_usernames: ['hubot'] } }), 403);
  expect(
    (await api.call('POST', USERS(), { as: 'fine-grained-assistant-writer', body: { selected_usernames: ['hubot'] } })).statusCode,
  ).toBe(201);
  expectErrorBody(await api.get(BILLING(), { as: 'repo-admin' }), 403);
  expectErrorBody(await api.get(BILLING()), 401);
});

test('an injected internal failure answers 500 with the error body, once', async ({ api }) => {
  const injected = await api.call('POST', '/_conformance/failures', { body: { internal: 1 } });
  expect(injected.json()).toEqual({ pending: { storage: 0, internal: 1, maintenance: 0 } });
  expectErrorBody(await api.get(BILLING(), owner), 500, 'Internal Server Error');
  expect((await api.get(BILLING(), owner)).statusCode).toBe(200);
});
