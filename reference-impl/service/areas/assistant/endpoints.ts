// The assistant subscription, its seats and its usage metrics, endpoints 1–9 of spec
// document 2, for the organizations whose `assistant` the world sets (seats.ts holds the
// Seat state machine, metrics.ts the daily figures).
//
// Decisions where the spec is silent (README "Assistant"), and the variations that make
// some otherwise (suites/variants/assistant.yaml; seats.ts and metrics.ts list theirs):
// - Only owners: an app installation acts as the app, no owner, so it is refused (auth).
//   Reads (1, 2, 7) and the metrics also take admin:org (and admin:enterprise), the wider
//   scopes of read:org and read:enterprise; variation `assistant.reads-need-listed-scope`
//   takes only the scopes the spec lists there.
// - The metrics of a team (9) are for the same viewers as the organization's (8): its
//   owners and the enterprise's owners and billing managers; variation
//   `assistant.team-metrics-org-owners-only` shows them to the organization's owners only.
// - An organization without an enabled subscription has no billing or seats: 1 and 2
//   answer 404 (variation `assistant.no-subscription-empty`: 200, zeros and no seats). Its
//   payment-method problem is the billing endpoint's 422 only.
// - 3–6 refuse the whole request (422, nothing changes) when any named team or user is
//   unknown, or (users) neither a member nor invited (variation
//   `assistant.unknown-names-skipped` carries out the rest); teams are named by slug or
//   name, case-insensitively (variation `assistant.teams-by-exact-name`: the name as
//   written only), and a team's members include its nested teams' (variation
//   `assistant.nested-teams-not-seated`: its own only). A seat of 6 held through a team
//   refuses the whole request too.
// - seats_created counts new and refreshed seats, not those held already (variation
//   `assistant.held-seats-counted` counts those as refreshed).
// - seat_breakdown: every seat listed by 2 is in `total`; each is active this cycle (used
//   since the cycle began) or inactive, so total = active_this_cycle + inactive_this_cycle;
//   pending_invitation and pending_cancellation count seats among them, added_this_cycle
//   those made since the cycle began. Variation
//   `assistant.breakdown-total-without-pending-cancellation` leaves seats pending
//   cancellation out of total.
// - The seat of an invitee is listed by 2 and counted in total_seats and the breakdown's
//   total (7 refuses it, as the spec says); variation `assistant.invitee-seat-unlisted`
//   leaves it out of both.
// - 7 answers 404 for a member without a seat, as for a non-member.
// - Seats are listed by creation time, then login.
// - A 500 needs a failure injected through the control API (`{"internal": N}`): the next
//   N requests to these endpoints fail with the error body (variation
//   `assistant.internal-error-without-message`: its message empty).
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { AreaModule } from '../../area.js';
import { onOrganization, read, write } from '../../auth/endpoint-access.js';
import { defineEndpoint } from '../../endpoint.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import { pageOf } from '../../pagination.js';
import { queryValue } from '../../query.js';
import { representerFor } from '../../representations.js';
import type { WorldOrganization, WorldTeam } from '../../world-model.js';
import { dailyMetrics, dayOf, METRICS_MIN_LICENSED, METRICS_WINDOW_DAYS, metricsBound } from './metrics.js';
import { representSeat, subscriptionSettings } from './representation.js';
import {
  assign,
  calendarCycle,
  type CancellationReading,
  licensedAt,
  type Seat,
  seatCycle,
  type SeatSource,
  teamMembers,
  withdraw,
  worldSeats,
} from './seats.js';

const OWNER = { anonymous: false, role: 'organization-owner' } as const;
/** The scopes as listed, for the assistant.reads-need-listed-scope variation. */
const both = (scopes: readonly string[]) => ({ public: scopes, private: scopes });
const LISTED_READ_SCOPES = both(['manage_billing:assistant', 'read:org']);
const ASSISTANT_READ = onOrganization({
  ...OWNER,
  scopes: both(['manage_billing:assistant', 'read:org', 'admin:org']),
  permissions: [read('organization_assistant_business'), read('organization_administration')],
  variations: [{ variant: 'assistant.reads-need-listed-scope', scopes: LISTED_READ_SCOPES }],
});
const ASSISTANT_WRITE = onOrganization({
  ...OWNER,
  scopes: { public: ['manage_billing:assistant', 'admin:org'], private: ['manage_billing:assistant', 'admin:org'] },
  permissions: [write('organization_assistant_business'), write('organization_administration')],
});
const METRICS_SCOPES = ['manage_billing:assistant', 'read:org', 'admin:org', 'read:enterprise', 'admin:enterprise'];
const LISTED_METRICS_SCOPES = both(['manage_billing:assistant', 'read:org', 'read:enterprise']);
const METRICS_RULE = {
  anonymous: false,
  role: 'organization-billing-viewer',
  scopes: both(METRICS_SCOPES),
  permissions: [read('organization_assistant_business'), read('organization_administration')],
} as const;
const LISTED_METRICS_READ = { variant: 'assistant.reads-need-listed-scope', scopes: LISTED_METRICS_SCOPES } as const;
const METRICS_READ = onOrganization({ ...METRICS_RULE, variations: [LISTED_METRICS_READ] });
/** A team's metrics (9): the same, or with a variation the organization's owners only (the first variation on applies). */
const TEAM_METRICS_READ = onOrganization({
  ...METRICS_RULE,
  variations: [{ variant: 'assistant.team-metrics-org-owners-only', role: 'organization-owner' }, LISTED_METRICS_READ],
});

const NAMES = Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 1000 });
const TEAMS_BODY = Type.Object({ selected_teams: NAMES }, { title: 'AssistantSeat', additionalProperties: false });
const USERS_BODY = Type.Object({ selected_usernames: NAMES }, { title: 'AssistantSeat', additionalProperties: false });

const PREFIX = '/orgs/:org/assistant';

const create: AreaModule['create'] = ({ directory, clock, faults, variants, failures }) => {
  /** Seats per organization (lower-case login), every record ever made. */
  let seats = new Map<string, Map<string, Seat>>();
  const load = () => {
    seats = new Map(directory.world.organizations.map((org) => [org.login.toLowerCase(), worldSeats(org)]));
  };
  load();

  const seatsOf = (organization: WorldOrganization) => seats.get(organization.login.toLowerCase())!;
  /** The seats held now, by creation time then login. */
  const heldSeats = (organization: WorldOrganization) =>
    [...seatsOf(organization).values()]
      .filter((seat) => licensedAt(seat, clock.now()))
      .sort((a, b) => a.createdAt - b.createdAt || a.login.localeCompare(b.login));
  const isMember = (organization: WorldOrganization, login: string) =>
    [...organization.owners, ...(organization.members ?? [])].some((member) => member.toLowerCase() === login.toLowerCase());
  const isInvited = (organization: WorldOrganization, login: string) =>
    (organization.invitations ?? []).some((invitee) => invitee.toLowerCase() === login.toLowerCase());
  /** Whether the seat list (2) and its total show a seat: an invitee's too, unless assistant.invitee-seat-unlisted. */
  const listed = (organization: WorldOrganization) => (seat: Seat) =>
    !variants.on('assistant.invitee-seat-unlisted') || isMember(organization, seat.login);

  /** The billing cycle of every seat (the calendar month), or each seat's own. */
  const cycleOf = () => (variants.on('assistant.billing-cycle-per-seat') ? seatCycle : calendarCycle);
  const cancellationReading = (): CancellationReading => ({
    cycle: cycleOf(),
    dateIsFirstDayWithout: variants.on('assistant.cancellation-date-first-day-without'),
  });

  /** An injected internal failure (control API `{"internal": N}`): 500 with the error body. */
  const failIfInjected = () => {
    if (!failures.take('internal')) return;
    if (faults.on('assistant.internal-error-503')) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service Unavailable');
    throw new ApiError(500, 'INTERNAL', variants.on('assistant.internal-error-without-message') ? '' : 'Internal Server Error');
  };

  /** 404 unless the organization's subscription is enabled (its settings, without seats, with assistant.no-subscription-empty). */
  const subscribed = (organization: WorldOrganization) => {
    failIfInjected();
    const settings = organization.assistant;
    if (settings?.subscription || (settings !== undefined && variants.on('assistant.no-subscription-empty'))) return settings;
    throw new ApiError(404, 'NOT_FOUND', 'The organization has no assistant subscription');
  };

  /** The 422 conditions of 3–6, each alone. */
  const requireManageable = (organization: WorldOrganization) => {
    failIfInjected();
    const settings = organization.assistant;
    const refuse = (message: string) => new ApiError(422, 'VALIDATION_FAILED', message);
    if (!settings?.subscription && !faults.on('assistant.subscription-check-skipped'))
      throw refuse('The assistant subscription is not enabled for this organization');
    if (!settings?.billing && !faults.on('assistant.billing-check-skipped'))
      throw refuse('Billing has not been set up for this organization');
    if (settings?.public_code_suggestions === 'unconfigured' && !faults.on('assistant.policy-check-skipped'))
      throw refuse('The public code suggestions policy has not been set for this organization');
    if (settings?.seat_management === 'assign_all' && !faults.on('assistant.access-all-allowed'))
      throw refuse("The organization's assistant access setting is set to all members");
    if (settings?.seat_management === 'unconfigured' && !faults.on('assistant.access-unconfigured-allowed'))
      throw refuse("The organization's assistant access setting is unconfigured");
  };

  /** The named teams, each found by slug or name in any case (by its name as written only, with a variation); 422 naming those that are not. */
  const teamsNamed = (organization: WorldOrganization, requested: readonly string[]): WorldTeam[] => {
    const exact = variants.on('assistant.teams-by-exact-name');
    const names = (name: string) => (team: WorldTeam) =>
      exact ? team.name === name : [team.slug, team.name].some((known) => known.toLowerCase() === name.toLowerCase());
    const found = requested.map((name) => (organization.teams ?? []).find(names(name)));
    refuseUnknown('selected_teams', requested, found);
    return found.filter((team) => team !== undefined);
  };
  /** The named users who are members or invitees, canonical; 422 naming the rest. */
  const usersNamed = (organization: WorldOrganization, requested: readonly string[]): string[] => {
    const found = requested.map((login) =>
      isMember(organization, login) || isInvited(organization, login) ? directory.user(login)?.login : undefined,
    );
    refuseUnknown('selected_usernames', requested, found);
    return found.filter((login) => login !== undefined);
  };
  const refuseUnknown = (field: string, requested: readonly string[], found: readonly unknown[]) => {
    const unknown = requested.filter((_, i) => found[i] === undefined);
    if (unknown.length > 0 && !variants.on('assistant.unknown-names-skipped'))
      throw validationFailed(
        unknown.map((value) => ({ resource: 'AssistantSeat', field, code: 'custom', message: `not found: ${value}` })),
      );
  };
  const membersOf = (organization: WorldOrganization, team: WorldTeam) =>
    variants.on('assistant.nested-teams-not-seated') ? (team.members ?? []) : teamMembers(organization, team);

  const cancellationFaults = () => ({
    retentionIgnored: faults.on('assistant.retention-ignored'),
    immediate: faults.on('assistant.cancel-immediate'),
    dateToday: faults.on('assistant.cancellation-date-today'),
    kept: faults.on('assistant.cancelled-seat-kept'),
  });

  /** Assigns each login from `source`; how many seats were created or refreshed (held ones too, with assistant.held-seats-counted). */
  const assignAll = (organization: WorldOrganization, logins: readonly string[], source: SeatSource) => {
    let created = 0;
    const recreateOnRefresh = variants.on('assistant.refreshed-seat-recreated');
    for (const login of new Set(logins)) {
      const outcome = assign(seatsOf(organization), login, source, clock.now(), { recreateOnRefresh });
      const counted =
        outcome === 'created' ||
        (outcome === 'refreshed' && !faults.on('assistant.refresh-not-counted')) ||
        (outcome === 'held' && variants.on('assistant.held-seats-counted'));
      if (counted) created += 1;
    }
    return created;
  };

  const seatOf = (request: FastifyRequest, organization: WorldOrganization, seat: Seat) =>
    representSeat(representerFor(request, directory), organization, seat, clock.now(), !faults.on('assistant.member-seat-no-team'));

  /** 422 unless the metrics policy is enabled for the organization and its enterprise. */
  const requireMetricsPolicy = (organization: WorldOrganization) => {
    failIfInjected();
    const enterprise = directory.enterpriseOf(organization.login);
    const orgOff = !organization.assistant?.metrics_policy && !faults.on('assistant.metrics-org-policy-ignored');
    const enterpriseOff = enterprise?.assistant_metrics === false && !faults.on('assistant.metrics-enterprise-policy-ignored');
    if (orgOff || enterpriseOff) throw new ApiError(422, 'VALIDATION_FAILED', 'The assistant metrics API access policy is disabled');
  };

  /** The metrics of `members` (logins) of the organization, one page of days. */
  function metricsPage(request: FastifyRequest, reply: Parameters<typeof pageOf>[1], organization: WorldOrganization, members: string[]) {
    const [since, until] = ['since', 'until'].map((name) => {
      const text = queryValue(request.query, name);
      if (text === undefined) return undefined;
      const bound = metricsBound(text);
      if (bound === undefined && !variants.on('assistant.metrics-bad-dates-ignored'))
        throw validationFailed([{ resource: 'AssistantMetrics', field: name, code: 'invalid' }]);
      return bound;
    });
    // until's day is the last listed, or (assistant.metrics-until-exclusive) the last day that begins before it.
    const untilDay = until === undefined ? undefined : variants.on('assistant.metrics-until-exclusive') ? dayOf(until.at - 1) : until.day;
    const today = dayOf(clock.now());
    const records = dailyMetrics(
      [...seatsOf(organization).values()],
      new Set(members.map((login) => login.toLowerCase())),
      directory.repositoriesOwnedBy(organization.login).map((repository) => repository.name),
      {
        since: since?.day,
        until: faults.on('assistant.metrics-until-ignored') ? undefined : untilDay,
        minimum: faults.on('assistant.metrics-threshold-4') ? METRICS_MIN_LICENSED - 1 : METRICS_MIN_LICENSED,
        lastDay: faults.on('assistant.metrics-includes-today') ? today : dayOf(Date.parse(`${today}T00:00:00Z`) - 1),
        newestFirst: variants.on('assistant.metrics-newest-first'),
      },
    );
    // The assistant.metrics-per-page-ignored fault: every page is the whole window, whatever per_page says.
    if (faults.on('assistant.metrics-per-page-ignored')) return records;
    return pageOf(request, reply, records, { defaultPerPage: METRICS_WINDOW_DAYS, maxPerPage: METRICS_WINDOW_DAYS });
  }

  const endpoints = [
    defineEndpoint({
      spec: { document: 2, number: 1 },
      id: 'assistant.billing',
      summary: 'Get assistant seat information and settings for an organization',
      method: 'GET',
      path: `${PREFIX}/billing`,
      responses: { 200: 'assistant-billing' },
      access: ASSISTANT_READ,
      handler: (_request, _reply, { organization }) => {
        const settings = subscribed(organization);
        if (settings.payment_problem && !faults.on('assistant.payment-problem-ignored'))
          throw new ApiError(422, 'VALIDATION_FAILED', "There is a problem with the organization's payment method");
        const withoutPending = variants.on('assistant.breakdown-total-without-pending-cancellation');
        const billing = subscriptionSettings(settings, heldSeats(organization), clock.now(), {
          isMember: (login) => isMember(organization, login),
          reading: {
            cycle: cycleOf(),
            inTotal: (seat) => listed(organization)(seat) && !(withoutPending && seat.pendingCancellationDate !== null),
          },
        });
        // undefined leaves the field out of the JSON.
        return faults.on('assistant.billing-without-plan') ? { ...billing, plan_type: undefined } : billing;
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 2 },
      id: 'assistant.seats',
      summary: 'List all assistant seat assignments for an organization',
      method: 'GET',
      path: `${PREFIX}/billing/seats`,
      responses: { 200: 'assistant-seats' },
      access: ASSISTANT_READ,
      handler: (request, reply, { organization }) => {
        subscribed(organization);
        const held = heldSeats(organization).filter(listed(organization));
        const defaultPerPage = faults.on('assistant.seats-default-30') ? 30 : 50;
        const page = pageOf(request, reply, held, { defaultPerPage, maxPerPage: 100 }).map((seat) => seatOf(request, organization, seat));
        return faults.on('assistant.seats-bare-array') ? page : { total_seats: held.length, seats: page };
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 3 },
      id: 'assistant.assign-teams',
      summary: 'Add teams to the assistant subscription for an organization',
      method: 'POST',
      path: `${PREFIX}/billing/selected_teams`,
      responses: { 201: 'json' },
      access: ASSISTANT_WRITE,
      body: TEAMS_BODY,
      handler: (request, reply, { organization }) => {
        requireManageable(organization);
        const teams = teamsNamed(organization, request.body.selected_teams);
        let created = 0;
        for (const team of teams) created += assignAll(organization, membersOf(organization, team), { team: team.slug });
        reply.code(faults.on('assistant.assign-200') ? 200 : 201);
        return { seats_created: created };
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 4 },
      id: 'assistant.cancel-teams',
      summary: 'Remove teams from the assistant subscription for an organization',
      method: 'DELETE',
      path: `${PREFIX}/billing/selected_teams`,
      responses: { 200: 'json' },
      access: ASSISTANT_WRITE,
      body: TEAMS_BODY,
      handler: (request, _reply, { organization }) => {
        requireManageable(organization);
        let cancelled = 0;
        for (const team of teamsNamed(organization, request.body.selected_teams))
          for (const login of membersOf(organization, team))
            if (withdraw(seatsOf(organization), login, { team: team.slug }, clock.now(), cancellationFaults(), cancellationReading()))
              cancelled += 1;
        return { seats_cancelled: faults.on('assistant.cancel-count-zero') ? 0 : cancelled };
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 5 },
      id: 'assistant.assign-users',
      summary: 'Add users to the assistant subscription for an organization',
      method: 'POST',
      path: `${PREFIX}/billing/selected_users`,
      responses: { 201: 'json' },
      access: ASSISTANT_WRITE,
      body: USERS_BODY,
      handler: (request, reply, { organization }) => {
        requireManageable(organization);
        const created = assignAll(organization, usersNamed(organization, request.body.selected_usernames), { direct: true });
        reply.code(faults.on('assistant.assign-200') ? 200 : 201);
        return { seats_created: created };
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 6 },
      id: 'assistant.cancel-users',
      summary: 'Remove users from the assistant subscription for an organization',
      method: 'DELETE',
      path: `${PREFIX}/billing/selected_users`,
      responses: { 200: 'json' },
      access: ASSISTANT_WRITE,
      body: USERS_BODY,
      handler: (request, _reply, { organization }) => {
        requireManageable(organization);
        const logins = usersNamed(organization, request.body.selected_usernames);
        const throughTeam = logins.filter((login) => {
          const seat = seatsOf(organization).get(login.toLowerCase());
          return seat !== undefined && licensedAt(seat, clock.now()) && seat.teams.length > 0;
        });
        if (throughTeam.length > 0 && !faults.on('assistant.team-seat-cancelled'))
          throw new ApiError(
            422,
            'VALIDATION_FAILED',
            `Seats assigned through a team cannot be cancelled per user: ${throughTeam.join(', ')}`,
          );
        // The assistant.team-seat-cancelled fault: a seat held through a team goes too.
        const cancellation = {
          ...cancellationFaults(),
          retentionIgnored: faults.on('assistant.retention-ignored') || throughTeam.length > 0,
        };
        const cancelled = logins.filter((login) =>
          withdraw(seatsOf(organization), login, { direct: true }, clock.now(), cancellation, cancellationReading()),
        );
        return { seats_cancelled: faults.on('assistant.cancel-count-zero') ? 0 : cancelled.length };
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 7 },
      id: 'assistant.member-seat',
      summary: 'Get assistant seat assignment details for a user',
      method: 'GET',
      path: '/orgs/:org/members/:username/assistant',
      responses: { 200: 'assistant-seat' },
      access: ASSISTANT_READ,
      handler: (request, _reply, { organization }) => {
        failIfInjected();
        const { username } = request.params;
        const invited = isInvited(organization, username);
        if (!isMember(organization, username) && !invited) {
          if (faults.on('assistant.non-member-422')) throw new ApiError(422, 'VALIDATION_FAILED', 'Not a member of the organization');
          throw notFound();
        }
        if (!organization.assistant?.subscription)
          throw new ApiError(422, 'VALIDATION_FAILED', 'The assistant subscription is not enabled for this organization');
        if (invited && !faults.on('assistant.member-seat-invitee-served'))
          throw new ApiError(422, 'VALIDATION_FAILED', 'The user has a pending invitation to the organization');
        const seat = seatsOf(organization).get(username.toLowerCase());
        if (seat === undefined || !licensedAt(seat, clock.now())) throw new ApiError(404, 'NOT_FOUND', 'The user has no assistant seat');
        return seatOf(request, organization, seat);
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 8 },
      id: 'assistant.metrics',
      summary: 'Get a summary of assistant usage for organization members',
      method: 'GET',
      path: `${PREFIX}/metrics`,
      responses: { 200: 'assistant-metrics-day[]' },
      access: METRICS_READ,
      handler: (request, reply, { organization }) => {
        requireMetricsPolicy(organization);
        const records = metricsPage(request, reply, organization, [...organization.owners, ...(organization.members ?? [])]);
        if (!faults.on('assistant.metrics-without-engaged')) return records;
        return records.map(({ total_engaged_users: _, ...rest }) => rest);
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 9 },
      id: 'assistant.team-metrics',
      summary: 'Get a summary of assistant usage for a team',
      method: 'GET',
      path: '/orgs/:org/team/:team_slug/assistant/metrics',
      responses: { 200: 'assistant-metrics-day[]' },
      access: TEAM_METRICS_READ,
      handler: (request, reply, { organization }) => {
        const team = (organization.teams ?? []).find((candidate) => candidate.slug === request.params.team_slug.toLowerCase());
        if (team === undefined) throw notFound();
        requireMetricsPolicy(organization);
        const everyone = [...organization.owners, ...(organization.members ?? [])];
        return metricsPage(
          request,
          reply,
          organization,
          faults.on('assistant.team-metrics-whole-org') ? everyone : teamMembers(organization, team),
        );
      },
    }),
  ];

  return { name: 'assistant', endpoints, reset: load, state: () => seats };
};

export const assistant = { name: 'assistant', create } satisfies AreaModule;
