// @octokit/rest against the assistant endpoints. The client has no methods for these paths,
// so it drives them with octokit.request and follows the seats' link header page by page
// with octokit.paginate.iterator, as a client of a preview API does.
import { expect, test } from '../../octokit.fixture.js';

const org = 'octo-labs';

test('billing, then every seat page by page over the link header, then a seat assigned through a team', async ({ octokit }) => {
  const client = octokit('org-owner');
  const billing = await client.request('GET /orgs/{org}/assistant/billing', { org });
  expect(billing.data.seat_breakdown.total).toBe(106);

  const pages: number[] = [];
  const logins = new Set<string>();
  for await (const page of client.paginate.iterator('GET /orgs/{org}/assistant/billing/seats', { org, per_page: 40 })) {
    const { seats, total_seats } = page.data as unknown as { total_seats: number; seats: { assignee: { login: string } }[] };
    expect(total_seats).toBe(106);
    pages.push(seats.length);
    for (const seat of seats) logins.add(seat.assignee.login);
  }
  expect(pages).toEqual([40, 40, 26]);
  expect(logins.size).toBe(106);

  const created = await client.request('POST /orgs/{org}/assistant/billing/selected_teams', { org, selected_teams: ['newcomers'] });
  expect(created.status).toBe(201);
  expect(created.data).toEqual({ seats_created: 2 });
  const seat = await client.request('GET /orgs/{org}/members/{username}/assistant', { org, username: 'octocat' });
  expect(seat.data.assigning_team.slug).toBe('newcomers');
});

test('metrics for the organization and a team; a cancelled user seat; errors are RequestErrors', async ({ octokit }) => {
  const client = octokit('enterprise-billing-manager');
  const metrics = await client.request('GET /orgs/{org}/assistant/metrics', { org, since: '2026-05-25T00:00:00Z' });
  expect(metrics.data.map((day: { date: string }) => day.date)).toEqual([
    '2026-05-25',
    '2026-05-26',
    '2026-05-27',
    '2026-05-28',
    '2026-05-29',
    '2026-05-30',
    '2026-05-31',
  ]);
  const team = await client.request('GET /orgs/{org}/team/{team_slug}/assistant/metrics', { org, team_slug: 'platform', per_page: 5 });
  expect(team.data).toHaveLength(5);
  expect(team.headers.link).toContain('rel="next"');
  await expect(client.request('GET /orgs/{org}/assistant/billing', { org })).rejects.toMatchObject({ status: 403 });

  const owner = octokit('org-owner');
  const cancelled = await owner.request('DELETE /orgs/{org}/assistant/billing/selected_users', { org, selected_usernames: ['dev-001'] });
  expect(cancelled.data).toEqual({ seats_cancelled: 1 });
  await expect(
    owner.request('POST /orgs/{org}/assistant/billing/selected_users', { org: 'asst-no-billing', selected_usernames: ['monalisa'] }),
  ).rejects.toMatchObject({ status: 422 });
});
