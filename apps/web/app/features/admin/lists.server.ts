/**
 * The admin's paged lists (racers, audit log, outbox, accounts): what each page's loader reads,
 * once the route has checked that the visitor is an admin.
 */
import { categoryFromSlug } from "@game/core";
import {
  AUDIT_ACTIONS,
  listAudit,
  listEvents,
  listOutbox,
  listRacersForAdmin,
  listUsersForAdmin,
  outboxStatus,
  portraitsStored,
} from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { pageFrom } from "./forms";

/** The dashboard's racer list: one page of racers (filtered by game and category), with the events to filter by and which racers have a stored portrait. */
export async function racersPage(request: Request, context: AppLoadContext, pageSize: number) {
  const url = new URL(request.url);
  const game = Number(url.searchParams.get("game"));
  const gameId = Number.isSafeInteger(game) && game > 0 && game < 2 ** 31 ? game : undefined;
  const category = categoryFromSlug(url.searchParams.get("category") ?? "");
  const page = pageFrom(url);
  const [events, racers] = await Promise.all([
    listEvents(context.db),
    listRacersForAdmin(context.db, {
      gameId,
      category,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    }),
  ]);
  // Which racers on this page have a stored portrait (the others show their avatar).
  const stored = await portraitsStored(
    context.db,
    racers.rows.flatMap((r) => (r.picture ? [r.picture] : [])),
  );
  return {
    events: events.map((e) => ({ id: e.id, name: e.name })),
    filter: { gameId: gameId ?? null, category: category ?? null },
    racers: racers.rows.map((r) => ({
      ...r,
      hasPortrait: r.picture !== null && stored.has(r.picture),
      withdrawnAt: r.withdrawnAt?.toISOString() ?? null,
      updatedAt: r.updatedAt.toISOString(),
    })),
    total: racers.total,
    page,
  };
}

/** One page of the audit log, optionally of one action. */
export async function auditPage(request: Request, context: AppLoadContext, pageSize: number) {
  const url = new URL(request.url);
  const asked = url.searchParams.get("action") ?? "";
  const action = (AUDIT_ACTIONS as readonly string[]).includes(asked) ? asked : undefined;
  const page = pageFrom(url);
  const { rows, total } = await listAudit(context.db, {
    action,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return {
    // Sent with the data: the list lives in @game/db, which must stay out of the browser bundle.
    actions: AUDIT_ACTIONS,
    action: action ?? "",
    page,
    total,
    entries: rows.map((r) => ({
      id: r.id,
      actor: r.actor,
      action: r.action,
      target: r.target,
      detail: r.detail == null ? "" : JSON.stringify(r.detail),
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

/** One page of the mail outbox, newest first, with each mail's delivery status. */
export async function outboxPage(request: Request, context: AppLoadContext, pageSize: number) {
  const page = pageFrom(new URL(request.url));
  const { rows, total } = await listOutbox(context.db, {
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return {
    smtp: Boolean(context.env.smtpUrl),
    page,
    total,
    mails: rows.map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      text: m.text,
      status: outboxStatus(m),
      error: m.error,
      createdAt: m.createdAt.toISOString(),
    })),
  };
}

/** One page of accounts, searched by `q` (username or email). */
export async function usersPage(
  request: Request,
  context: AppLoadContext,
  pageSize: number,
  me: number,
) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const page = pageFrom(url);
  const { rows, total } = await listUsersForAdmin(context.db, {
    q,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return {
    me: me,
    q,
    page,
    total,
    users: rows.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() })),
  };
}
