import { LOCK_MS } from "./constants.js";

export const EVENT_STATUSES = ["open", "closed", "archived"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export interface LockableEvent {
  startsAt: Date | string | number;
}

function toMs(value: Date | string | number): number {
  return value instanceof Date ? value.getTime() : new Date(value).getTime();
}

/** Teams lock 12 hours before the event starts. */
export function lockTime(event: LockableEvent): Date {
  return new Date(toMs(event.startsAt) - LOCK_MS);
}

/**
 * Locked from the lock moment on (exactly 12 h before start is locked). Clock injected.
 * Fails closed: an unreadable start time or clock counts as locked.
 */
export function isLocked(event: LockableEvent, now: Date | number): boolean {
  return !(toMs(now) < lockTime(event).getTime());
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
