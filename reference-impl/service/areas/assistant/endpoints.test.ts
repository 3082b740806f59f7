// Endpoints 1–9 of spec 2: the assistant subscription, its seats (the Seat state machine on
// the clock, which starts 2026-06-01T12:00Z inside the June billing cycle) and the metrics.
// octo-org: seats for hubot, mojombo, wanstrath (direct), monalisa and defunkt (through
// core) and the invitee pjhyett; octo-labs: 106 seats, teams platform (5), tools (4) and
// newcomers (2, unseated).
import { type Api, expect, expectErrorBody, test } from '../../service.fixture.js';
import { billingCycle } from './seats.js';

const BILLING = (org = 'octo-org') => `/orgs/${org}/assistant/billing`;
const SEATS = (org = 'octo-org') => `${BILLING(org)}/seats`;
const TEAMS = (org = 'octo-org') => `${BILLING(org)}/selected_teams`;
const USERS = (org = 'octo-org') => `${BILLING(org)}/selected_users`;
const SEAT = (login: string, org = 'octo-org') => `/orgs/${org}/members/${login}/assistant`;
const METRICS = (org = 'octo-org') => `/orgs/${org}/assistant/metrics`;
const owner = { as: 'org-owner' };
const manager = { as: 'assistant-manager' };

const datesOf = async (api: Api, url: string) => (await api.get(url, manager)).json().map((day: { date: string }) => day.date);
/** Sets the service clock through the control API. */
async function setClock(api: Api, at: string): Promise<void> {
  expect((await api.call('POST', '/_conformance/clock', { body: { set: at } })).statusCode).toBe(200);
}

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
  // An app installation acts as the app: no owner, whatever it was granted.
  expectErrorBody(await api.get(BILLING(), { as: 'app-installation' }), 403, /owner/);
  expectErrorBody(await api.get(BILLING()), 401);
});

test('an injected internal failure answers 500 with the error body, once', async ({ api }) => {
  const injected = await api.call('POST', '/_conformance/failures', { body: { internal: 1 } });
  expect(injected.json()).toEqual({ pending: { storage: 0, internal: 1, maintenance: 0 } });
  expectErrorBody(await api.get(BILLING(), owner), 500, 'Internal Server Error');
  expect((await api.get(BILLING(), owner)).statusCode).toBe(200);
});

test.describe('variations', () => {
  test('teams-by-exact-name: a team is found by its name as written only', async ({ api }) => {
    expect((await api.call('DELETE', TEAMS(), { ...manager, body: { selected_teams: ['core'] } })).statusCode).toBe(200);
    await api.call('POST', TEAMS(), { ...manager, body: { selected_teams: ['Core'] } });
    await api.vary('assistant.teams-by-exact-name');
    for (const name of ['core', 'CORE', 'frontend-web'])
      expectErrorBody(await api.call('DELETE', TEAMS(), { ...manager, body: { selected_teams: [name] } }), 422);
    expect((await api.call('DELETE', TEAMS(), { ...manager, body: { selected_teams: ['Core'] } })).json()).toEqual({ seats_cancelled: 2 });
  });

  test('held-seats-counted: a seat held already and named again counts as refreshed', async ({ api }) => {
    expect((await api.call('POST', USERS(), { ...manager, body: { selected_usernames: ['hubot'] } })).json()).toEqual({ seats_created: 0 });
    await api.vary('assistant.held-seats-counted');
    expect((await api.call('POST', USERS(), { ...manager, body: { selected_usernames: ['hubot'] } })).json()).toEqual({ seats_created: 1 });
    // A new seat still counts once.
    expect((await api.call('POST', TEAMS('octo-labs'), { ...manager, body: { selected_teams: ['Interns'] } })).json()).toEqual({
      seats_created: 1,
    });
  });

  test('refreshed-seat-recreated: a refreshed seat gets a new created_at', async ({ api }) => {
    await api.vary('assistant.refreshed-seat-recreated');
    await api.call('DELETE', USERS(), { ...manager, body: { selected_usernames: ['mojombo'] } });
    await api.advance(3600);
    expect((await api.call('POST', USERS(), { ...manager, body: { selected_usernames: ['mojombo'] } })).json()).toEqual({
      seats_created: 1,
    });
    expect((await api.get(SEAT('mojombo'), manager)).json()).toMatchObject({
      created_at: '2026-06-01T13:00:00Z',
      updated_at: '2026-06-01T13:00:00Z',
      pending_cancellation_date: null,
    });
  });

  test('invitee-seat-unlisted: the invitee seat is out of the list and the breakdown total', async ({ api }) => {
    expect((await api.get(SEATS(), manager)).json().total_seats).toBe(6);
    await api.vary('assistant.invitee-seat-unlisted');
    const list = (await api.get(SEATS(), manager)).json();
    expect(list.total_seats).toBe(5);
    expect(list.seats.map((seat: { assignee: { login: string } }) => seat.assignee.login)).not.toContain('pjhyett');
    expect((await api.get(BILLING(), manager)).json().seat_breakdown).toMatchObject({
      total: 5,
      pending_invitation: 1,
      inactive_this_cycle: 5,
    });
  });

  test('breakdown-total-without-pending-cancellation: seats pending cancellation leave total', async ({ api }) => {
    await api.call('DELETE', USERS(), { ...manager, body: { selected_usernames: ['mojombo'] } });
    expect((await api.get(BILLING(), manager)).json().seat_breakdown).toMatchObject({ total: 6, pending_cancellation: 1 });
    await api.vary('assistant.breakdown-total-without-pending-cancellation');
    const breakdown = (await api.get(BILLING(), manager)).json().seat_breakdown;
    expect(breakdown).toMatchObject({ total: 5, pending_cancellation: 1 });
    expect(breakdown.active_this_cycle + breakdown.inactive_this_cycle).toBe(5);
    // The seat list still shows it.
    expect((await api.get(SEATS(), manager)).json().total_seats).toBe(6);
  });

  test('cancellation-date-first-day-without: the date is the day after the last day of access', async ({ api }) => {
    await api.vary('assistant.cancellation-date-first-day-without');
    await api.call('DELETE', USERS(), { ...manager, body: { selected_usernames: ['hubot'] } });
    expect((await api.get(SEAT('hubot'), manager)).json().pending_cancellation_date).toBe('2026-07-01');
    // Access still ends with the cycle, June.
    await setClock(api, '2026-06-30T23:59:59Z');
    expect((await api.get(SEAT('hubot'), manager)).statusCode).toBe(200);
    await api.advance(1);
    expectErrorBody(await api.get(SEAT('hubot'), manager), 404);
  });

  test('billing-cycle-per-seat: each seat runs monthly from its own day', async ({ api }) => {
    await api.vary('assistant.billing-cycle-per-seat');
    // wanstrath (2026-05-20) and pjhyett (2026-05-25) are in their first cycle; mojombo's
    // (2026-05-01) second began on June 1.
    expect((await api.get(BILLING(), manager)).json().seat_breakdown.added_this_cycle).toBe(2);
    // hubot's seat of 2026-04-10: its cycle runs 2026-05-10 to 2026-06-10.
    await api.call('DELETE', USERS(), { ...manager, body: { selected_usernames: ['hubot'] } });
    expect((await api.get(SEAT('hubot'), manager)).json().pending_cancellation_date).toBe('2026-06-09');
    await setClock(api, '2026-06-09T23:59:59Z');
    expect((await api.get(SEAT('hubot'), manager)).statusCode).toBe(200);
    await api.advance(1);
    expectErrorBody(await api.get(SEAT('hubot'), manager), 404);
  });

  test("billing cycles: the calendar month, or a month from an anchor day (the 31st is a shorter month's last)", () => {
    const at = (text: string) => Date.parse(text);
    const iso = ({ start, end }: { start: number; end: number }) => [new Date(start).toISOString(), new Date(end).toISOString()];
    expect(iso(billingCycle(at('2026-06-01T12:00:00Z')))).toEqual(['2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z']);
    expect(iso(billingCycle(at('2026-06-01T12:00:00Z'), at('2026-04-10T09:00:00Z')))).toEqual([
      '2026-05-10T00:00:00.000Z',
      '2026-06-10T00:00:00.000Z',
    ]);
    expect(iso(billingCycle(at('2026-02-28T12:00:00Z'), at('2026-01-31T09:00:00Z')))).toEqual([
      '2026-02-28T00:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
    ]);
    expect(iso(billingCycle(at('2026-01-05T00:00:00Z'), at('2025-10-20T00:00:00Z')))).toEqual([
      '2025-12-20T00:00:00.000Z',
      '2026-01-20T00:00:00.000Z',
    ]);
  });

  test('nested-teams-not-seated: a team seats its own members only', async ({ api }) => {
    await api.vary('assistant.nested-teams-not-seated');
    expect((await api.call('POST', TEAMS('octo-labs'), { ...manager, body: { selected_teams: ['Newcomers'] } })).json()).toEqual({
      seats_created: 1,
    });
    expectErrorBody(await api.get(SEAT('sheriff', 'octo-labs'), manager), 404);
  });

  test('unknown-names-skipped: unknown names are skipped, the rest is done', async ({ api }) => {
    await api.vary('assistant.unknown-names-skipped');
    const response = await api.call('POST', USERS('octo-labs'), { ...manager, body: { selected_usernames: ['octocat', 'monalisa'] } });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ seats_created: 1 });
    expect((await api.get(SEAT('octocat', 'octo-labs'), manager)).statusCode).toBe(200);
    expect((await api.call('DELETE', TEAMS(), { ...manager, body: { selected_teams: ['Core', 'ghosts'] } })).json()).toEqual({
      seats_cancelled: 2,
    });
  });

  test('no-subscription-empty: without the subscription, 1 and 2 answer zeros and no seats', async ({ api }) => {
    await api.vary('assistant.no-subscription-empty');
    const billing = await api.get(BILLING('asst-no-subscription'), manager);
    expect(billing.statusCode).toBe(200);
    expect(billing.json().seat_breakdown).toEqual({
      total: 0,
      added_this_cycle: 0,
      pending_invitation: 0,
      pending_cancellation: 0,
      active_this_cycle: 0,
      inactive_this_cycle: 0,
    });
    expect((await api.get(SEATS('asst-no-subscription'), manager)).json()).toEqual({ total_seats: 0, seats: [] });
    // 7 and the writes still refuse, as the spec says.
    expectErrorBody(await api.get(SEAT('monalisa', 'asst-no-subscription'), manager), 422);
    expectErrorBody(await api.call('POST', USERS('asst-no-subscription'), { ...manager, body: { selected_usernames: ['monalisa'] } }), 422);
  });

  test('reads-need-listed-scope: admin:org alone no longer reads; it still writes', async ({ api }) => {
    for (const url of [BILLING(), SEAT('monalisa'), METRICS()]) expect((await api.get(url, owner)).statusCode).toBe(200);
    await api.vary('assistant.reads-need-listed-scope');
    for (const url of [BILLING(), SEATS(), SEAT('monalisa'), METRICS(), '/orgs/octo-org/team/core/assistant/metrics'])
      expectErrorBody(await api.get(url, owner), 403, /scope/);
    for (const as of ['assistant-manager', 'org-reader-scope']) expect((await api.get(BILLING(), { as })).statusCode).toBe(200);
    expect((await api.get(METRICS(), { as: 'enterprise-owner' })).statusCode).toBe(200);
    expect((await api.call('POST', USERS(), { ...owner, body: { selected_usernames: ['hubot'] } })).statusCode).toBe(201);
  });

  test("team-metrics-org-owners-only: the enterprise's viewers see the organization's metrics, not a team's", async ({ api }) => {
    const team = '/orgs/octo-labs/team/platform/assistant/metrics';
    for (const as of ['enterprise-owner', 'enterprise-billing-manager']) expect((await api.get(team, { as })).statusCode).toBe(200);
    await api.vary('assistant.team-metrics-org-owners-only');
    for (const as of ['enterprise-owner', 'enterprise-billing-manager']) {
      expectErrorBody(await api.get(team, { as }), 403);
      expect((await api.get(METRICS('octo-labs'), { as })).statusCode).toBe(200);
    }
    expect((await api.get(team, manager)).statusCode).toBe(200);
  });

  test('metrics-newest-first: the days come newest first, page by page', async ({ api }) => {
    expect((await datesOf(api, `${METRICS('octo-labs')}?per_page=28`))[0]).toBe('2026-05-04');
    await api.vary('assistant.metrics-newest-first');
    const days = await datesOf(api, `${METRICS('octo-labs')}?per_page=28`);
    expect(days).toHaveLength(28);
    expect(days[0]).toBe('2026-05-31');
    expect(days).toEqual([...days].sort().reverse());
    expect(await datesOf(api, `${METRICS('octo-labs')}?per_page=10&page=3`)).toEqual(
      Array.from({ length: 8 }, (_, i) => `2026-05-${String(11 - i).padStart(2, '0')}`),
    );
  });

  test('metrics-until-exclusive: until stops before the day it begins', async ({ api }) => {
    const range = (until: string) => `${METRICS()}?since=2026-05-22T00:00:00Z&until=${until}`;
    expect(await datesOf(api, range('2026-05-25T00:00:00Z'))).toEqual(['2026-05-22', '2026-05-23', '2026-05-24', '2026-05-25']);
    await api.vary('assistant.metrics-until-exclusive');
    expect(await datesOf(api, range('2026-05-25T00:00:00Z'))).toEqual(['2026-05-22', '2026-05-23', '2026-05-24']);
    expect(await datesOf(api, range('2026-05-25'))).toEqual(['2026-05-22', '2026-05-23', '2026-05-24']);
    expect(await datesOf(api, range('2026-05-25T00:00:01Z'))).toEqual(['2026-05-22', '2026-05-23', '2026-05-24', '2026-05-25']);
  });

  test('metrics-bad-dates-ignored: an unreadable bound is ignored', async ({ api }) => {
    expectErrorBody(await api.get(`${METRICS()}?since=yesterday`, manager), 422);
    await api.vary('assistant.metrics-bad-dates-ignored');
    expect(await datesOf(api, `${METRICS()}?since=yesterday&until=2026-02-30`)).toHaveLength(12);
    expect(await datesOf(api, `${METRICS()}?since=yesterday&until=2026-05-21`)).toEqual(['2026-05-20', '2026-05-21']);
  });

  test('internal-error-without-message: the 500 carries an empty message', async ({ api }) => {
    await api.vary('assistant.internal-error-without-message');
    await api.call('POST', '/_conformance/failures', { body: { internal: 1 } });
    expect(expectErrorBody(await api.get(BILLING(), manager), 500).message).toBe('');
    expect((await api.get(BILLING(), manager)).statusCode).toBe(200);
  });
});
