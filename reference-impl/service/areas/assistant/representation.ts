// The Subscription settings, Seat and Team (assigning_team) of spec 2, on the request's origin.
// Decisions (README "Assistant subscription and seats"): seat_breakdown counts every seat
// held, each active this cycle (used since it began) or inactive; ide_chat, platform_chat
// and cli are enabled; a team's privacy is closed, its notification setting enabled and its
// permission pull; last activity comes from the seat's telemetry (metrics.ts), null without it.
import type { Representer } from '../../representations.js';
import type { WorldAssistant, WorldOrganization, WorldTeam } from '../../world-model.js';
import { lastActivity } from './metrics.js';
import { billingCycle, type Seat } from './seats.js';

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

/**
 * The billing endpoint's answer for the seats `held` at `now`; `isMember` tells members from
 * invitees, `totalOff` leaves pending cancellations out of total (the assistant.breakdown-total-off fault).
 */
export function subscriptionSettings(
  settings: WorldAssistant,
  held: readonly Seat[],
  now: number,
  { isMember, totalOff }: { isMember: (login: string) => boolean; totalOff: boolean },
) {
  const { start } = billingCycle(now);
  const active = held.filter((seat) => (lastActivity(seat, now)?.at ?? 0) >= start).length;
  const pendingCancellation = held.filter((seat) => seat.pendingCancellationDate !== null).length;
  return {
    seat_breakdown: {
      total: totalOff ? held.length - pendingCancellation : held.length,
      added_this_cycle: held.filter((seat) => seat.createdAt >= start).length,
      pending_invitation: held.filter((seat) => !isMember(seat.login)).length,
      pending_cancellation: pendingCancellation,
      active_this_cycle: active,
      inactive_this_cycle: held.length - active,
    },
    seat_management_setting: settings.seat_management,
    ide_chat: 'enabled',
    platform_chat: 'enabled',
    cli: 'enabled',
    public_code_suggestions: settings.public_code_suggestions,
    plan_type: settings.plan_type ?? 'business',
  };
}
