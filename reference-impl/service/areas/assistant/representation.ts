// The Subscription settings, Seat and Team (assigning_team) of spec 2, on the request's origin.
// Decisions (README "Assistant subscription and seats"): seat_breakdown counts every seat
// held, each active this cycle (used since it began) or inactive (variations
// assistant.invitee-seat-unlisted and assistant.breakdown-total-without-pending-cancellation
// leave some out of total); ide_chat, platform_chat and cli are enabled; a team's privacy is
// closed, its notification setting enabled and its permission pull; last activity comes from
// the seat's telemetry (metrics.ts), null without it.
import type { Representer } from '../../representations.js';
import type { WorldAssistant, WorldOrganization, WorldTeam } from '../../world-model.js';
import { lastActivity } from './metrics.js';
import type { CycleOf, Seat } from './seats.js';

export function representTeam(representer: Representer, organization: WorldOrganization, team: WorldTeam): Record<string, unknown> {
  const { origin } = representer;
  const parent = (organization.teams ?? []).find((candidate) => candidate.slug === team.parent);
  return {
    id: team.id,
    node_id: representer.nodeId('Team', team.id),
    url: `${origin}/teams/${team.id}`,
    html_url: `${origin}/orgs/${organization.login}/teams/${team.slug}`,
    name: team.name,
    slug: team.slug,
    description: team.description ?? null,
    privacy: 'closed',
    notification_setting: 'notifications_enabled',
    permission: 'pull',
    members_url: `${origin}/teams/${team.id}/members{/member}`,
    repositories_url: `${origin}/teams/${team.id}/repos`,
    parent: parent ? representTeam(representer, organization, parent) : null,
  };
}

/** The seat at `now`; `assigning_team` when it is held through a team and `withTeam` (false: the assistant.member-seat-no-team fault). */
export function representSeat(representer: Representer, organization: WorldOrganization, seat: Seat, now: number, withTeam = true) {
  const activity = lastActivity(seat, now);
  const team = (organization.teams ?? []).find((candidate) => candidate.slug === seat.teams[0]);
  return {
    created_at: representer.timestamp(seat.createdAt),
    updated_at: representer.timestamp(seat.updatedAt),
    pending_cancellation_date: seat.pendingCancellationDate,
    last_activity_at: activity ? representer.timestamp(activity.at) : null,
    last_activity_editor: activity?.editor ?? null,
    plan_type: organization.assistant?.plan_type ?? 'business',
    assignee: representer.user(representer.userByLogin(seat.login)),
    ...(team && withTeam && { assigning_team: representTeam(representer, organization, team) }),
  };
}

/** How the breakdown counts where the spec leaves it open (variations, endpoints.ts). */
export interface BreakdownReading {
  /** The billing cycle of each seat. */
  cycle: CycleOf;
  /** Whether a seat is in `total` (and so in active_this_cycle or inactive_this_cycle). */
  inTotal: (seat: Seat) => boolean;
}

/**
 * The billing endpoint's answer for the seats `held` at `now`; `isMember` tells members from
 * invitees. added_this_cycle, pending_invitation and pending_cancellation count among all
 * seats held, total (active plus inactive) those `reading.inTotal` keeps: every one, for the
 * reference.
 */
export function subscriptionSettings(
  settings: WorldAssistant,
  held: readonly Seat[],
  now: number,
  { isMember, reading }: { isMember: (login: string) => boolean; reading: BreakdownReading },
) {
  const thisCycle = (seat: Seat) => reading.cycle(seat, now).start;
  const counted = held.filter(reading.inTotal);
  const active = counted.filter((seat) => (lastActivity(seat, now)?.at ?? 0) >= thisCycle(seat)).length;
  return {
    seat_breakdown: {
      total: counted.length,
      added_this_cycle: held.filter((seat) => seat.createdAt >= thisCycle(seat)).length,
      pending_invitation: held.filter((seat) => !isMember(seat.login)).length,
      pending_cancellation: held.filter((seat) => seat.pendingCancellationDate !== null).length,
      active_this_cycle: active,
      inactive_this_cycle: counted.length - active,
    },
    seat_management_setting: settings.seat_management,
    ide_chat: 'enabled',
    platform_chat: 'enabled',
    cli: 'enabled',
    public_code_suggestions: settings.public_code_suggestions,
    plan_type: settings.plan_type ?? 'business',
  };
}
