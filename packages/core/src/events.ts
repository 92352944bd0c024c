import { LOCK_MS } from "./constants.js";

export const EVENT_STATUSES = ["open", "closed", "archived"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export interface LockableEvent {
  startsAt: Date | string | number;
  /**
   * Hours before the start that teams lock, from the round's competition rules (docs/decisions/
   * 0156); the spec's 12 when the event does not say.
   */
  lockHours?: number;
}

function toMs(value: Date | string | number): number {
  return value instanceof Date ? value.getTime() : new Date(value).getTime();
}

/** Teams lock 12 hours before the event starts (a competition's rules may say other hours). */
export function lockTime(event: LockableEvent, lockHours?: number): Date {
  const hours = lockHours ?? event.lockHours;
  const before = hours === undefined ? LOCK_MS : hours * 3_600_000;
  return new Date(toMs(event.startsAt) - before);
}

/**
 * Locked from the lock moment on (exactly 12 h before start is locked). Clock injected.
 * Fails closed: an unreadable start time or clock counts as locked.
 */
export function isLocked(event: LockableEvent, now: Date | number, lockHours?: number): boolean {
  return !(toMs(now) < lockTime(event, lockHours).getTime());
}

export function isEventStatus(value: unknown): value is EventStatus {
  return typeof value === "string" && (EVENT_STATUSES as readonly string[]).includes(value);
}

/** Only an open event can be entered. */
export function canEnterEvent(event: { status: EventStatus }): boolean {
  return event.status === "open";
}

/** A team can be saved when the event is open and not locked. */
export function canEditTeam(
  event: { status: EventStatus } & LockableEvent,
  now: Date | number,
): { ok: true } | { ok: false; reason: "not-open" | "locked" } {
  if (!canEnterEvent(event)) return { ok: false, reason: "not-open" };
  if (isLocked(event, now)) return { ok: false, reason: "locked" };
  return { ok: true };
}

/**
 * Where an event stands for players (docs/decisions/0116):
 * - `upcoming`: not open yet (status closed), teams cannot be picked;
 * - `open`: teams can be picked and changed;
 * - `locked`: the lock has passed, or the teams were frozen early (an admin imported results
 *   before the lock): teams are final;
 * - `scored`: results are settled for the open event: teams are final and have points;
 * - `archived`: a past event of the season.
 */
export type EventPhase = "upcoming" | "open" | "locked" | "scored" | "archived";

export interface PhasedEvent extends LockableEvent {
  status: EventStatus;
  /** When the teams were frozen for scoring (at the lock, or earlier by a results import). */
  frozenAt?: Date | string | number | null;
  /** When results were last settled. */
  settledAt?: Date | string | number | null;
}

export function eventPhase(event: PhasedEvent, now: Date | number): EventPhase {
  if (event.status === "archived") return "archived";
  if (event.status !== "open") return "upcoming";
  if (event.settledAt != null) return "scored";
  if (event.frozenAt != null || isLocked(event, now)) return "locked";
  return "open";
}

/**
 * Whether an event may become the player's remembered game: only the open one. Opening any
 * other event by its address shows it without making it the game of every other page.
 */
export function canRememberEvent(event: { status: EventStatus }): boolean {
  return event.status === "open";
}

/**
 * The game pages show when none is asked for: the remembered one if it may still be remembered,
 * else the open event (the earliest, should there be several), else the latest scored one, else
 * the latest by date. Undefined only without events.
 */
export function currentGameOf<
  E extends { id: number; status: EventStatus } & LockableEvent & {
      settledAt?: PhasedEvent["settledAt"];
    },
>(all: readonly E[], rememberedId: number | null): E | undefined {
  const remembered = all.find((e) => e.id === rememberedId);
  if (remembered && canRememberEvent(remembered)) return remembered;
  const byStart = [...all].sort((a, b) => toMs(a.startsAt) - toMs(b.startsAt) || a.id - b.id);
  const open = byStart.find((e) => e.status === "open");
  if (open) return open;
  const latestFirst = byStart.reverse();
  return latestFirst.find((e) => e.settledAt != null) ?? latestFirst[0];
}

/** A round as live scores need it (docs/decisions/0171). */
export interface LiveRound extends PhasedEvent {
  /** Its results are provisional: settled in pieces while the race runs. */
  provisional?: boolean;
}

/**
 * Whether a round's scores may move now, so its pages follow its live stream: results are
 * provisional, or the teams are locked and no result is in yet (the first piece is coming).
 * An open round only: a closed or archived one never moves by itself.
 */
export function isLiveRound(event: LiveRound, now: Date | number): boolean {
  if (event.provisional) return true;
  if (event.status !== "open" || event.settledAt != null) return false;
  return event.frozenAt != null || isLocked(event, now);
}

/**
 * The key a live stream and a page compare: it changes with every settlement (each sets
 * `settledAt`) and when results become final.
 */
export function liveVersion(
  settledAt: Date | string | number | null | undefined,
  provisional: boolean,
): string {
  return `${settledAt == null ? 0 : toMs(settledAt)}${provisional ? "p" : ""}`;
}
