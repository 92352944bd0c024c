/**
 * Confirming a player's e-mail address (docs/decisions/0151): sign-up mails a one-time link (the
 * outbox keeps it without SMTP, as it keeps reset links); `/confirm-email` shows it and confirms
 * with a button, so a mail scanner following the link confirms nothing. Until then a player plays
 * but cannot see or accept invitations, join a league by its link, send invitations or get
 * reminders, so registering someone else's address gains nothing.
 */
import {
  confirmEmail,
  createEmailConfirmation,
  findEmailConfirmation,
  hit,
  isEmailConfirmed,
  redactOutboxMail,
} from "@game/db";
import { type AppLoadContext, data } from "@remix-run/node";
import { publicOrigin } from "~/features/leagues/paths.server";
import { getUser, requireUser, type SessionUser } from "~/utils/auth.server";
import { sendMail } from "~/utils/mailer.server";
import { clientIp, tooManyAttemptsMessage } from "~/utils/rate-limit.server";
import { readForm } from "~/utils/request.server";
import { safeRedirect } from "~/utils/safe-redirect";
import {
  CONFIRM_PATH,
  CONFIRMATION_LINK_INVALID,
  CONFIRMATION_SENT,
  type ConfirmEmailPage,
  type ConfirmEmailResult,
  EMAIL_ALREADY_CONFIRMED,
  EMAIL_CONFIRMED,
} from "./email-confirmation";

/** Confirmation mails per player per hour (sign-up's included): no mail-bombing an address. */
export const CONFIRMATION_MAILS_PER_HOUR = { limit: 3, windowMs: 60 * 60 * 1000 } as const;
/** Confirmation attempts per client per hour (each reads a token). */
const CONFIRMS_PER_IP = { limit: 30, windowMs: 60 * 60 * 1000 } as const;

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** A same-site path to come back to after confirming; "" for none (the default pages). */
const backPath = (value: string | null | undefined) => safeRedirect(value ?? "", "");

/** The confirmation e-mail: plain text and a simple HTML version. No player's text in it. */
export function confirmationMail(to: string, link: string) {
  const escaped = link.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
  return {
    to,
    subject: "Confirm your e-mail address for Gravity Fantasy",
    text: [
      "Welcome to Gravity Fantasy!",
      "",
      "Open this link within two days to confirm that this e-mail address is yours:",
      link,
      "",
      "Once it is confirmed you can accept invitations to mini leagues, join leagues by their invite link, invite friends and get a reminder before each round locks.",
      "",
      "If you did not create a Gravity Fantasy account, ignore this e-mail: without your confirmation nobody can use this address in the game's leagues or reminders.",
    ].join("\n"),
    html: `<p>Welcome to Gravity Fantasy!</p>
<p><a href="${escaped}">Confirm your e-mail address</a> (the link works once, within two days).</p>
<p>Once it is confirmed you can accept invitations to mini leagues, join leagues by their invite link, invite friends and get a reminder before each round locks.</p>
<p>If you did not create a Gravity Fantasy account, ignore this e-mail: without your confirmation nobody can use this address in the game's leagues or reminders.</p>`,
  };
}

export type SendConfirmationOutcome = "sent" | "already-confirmed" | "too-many" | "failed";

/**
 * Mails the player a new confirmation link (at most CONFIRMATION_MAILS_PER_HOUR), coming back to
 * `next` once confirmed. Delivered by SMTP, the outbox copy loses the live token (as reset links
 * do); without SMTP the outbox is the delivery and keeps it.
 */
export async function sendConfirmationMail(
  request: Request,
  context: AppLoadContext,
  user: Pick<SessionUser, "id">,
  next = "",
): Promise<{ outcome: SendConfirmationOutcome; retryAfterSeconds?: number }> {
  const now = context.now();
  const budget = await hit(context.db, `confirm-mail:user:${user.id}`, {
    ...CONFIRMATION_MAILS_PER_HOUR,
    now,
  });
  if (!budget.allowed) return { outcome: "too-many", retryAfterSeconds: budget.retryAfterSeconds };
  const issued = await createEmailConfirmation(context.db, user.id, { now });
  if (!issued) return { outcome: "already-confirmed" };
  const back = backPath(next);
  const query = `token=${issued.token}${back ? `&next=${encodeURIComponent(back)}` : ""}`;
  const link = `${publicOrigin(request, context)}${CONFIRM_PATH}?${query}`;
  const sent = await sendMail(context, confirmationMail(issued.email, link));
  if (sent.status === "sent") await redactOutboxMail(context.db, sent.id, issued.token);
  return { outcome: sent.status === "failed" ? "failed" : "sent" };
}

/** GET /confirm-email?token=...: whose address the link confirms (nothing is used up here). */
export async function confirmEmailLoader(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const next = backPath(url.searchParams.get("next"));
  const found = await findEmailConfirmation(context.db, token, context.now());
  if (found) {
    return data<ConfirmEmailPage>({
      state: "ready",
      token,
      email: found.email,
      username: found.username,
      next,
    });
  }
  const user = await getUser(request, context);
  // Read afresh: right after this request's own confirmation the session's row is older.
  const confirmed = user ? await isEmailConfirmed(context.db, user.id) : false;
  return data<ConfirmEmailPage>(
    {
      state: "invalid",
      // A signed-in player whose address is still unconfirmed can ask for a new link here.
      canResend: user !== null && !confirmed,
      confirmed,
      next,
    },
    // 400 for a link that does not work; the bare page (after confirming, or to ask for a new
    // link) is an ordinary page.
    { status: token && !confirmed ? 400 : 200 },
  );
}

/**
 * POST /confirm-email: `intent=confirm` with the link's token confirms the address;
 * `intent=resend` (signed in) mails a new link.
 */
export async function confirmEmailAction(request: Request, context: AppLoadContext) {
  const form = await readForm(request);
  const next = backPath(text(form, "redirectTo") || text(form, "next"));
  if (text(form, "intent") === "resend") return resend(request, context, next);

  const limit = await hit(context.db, `confirm-email:ip:${clientIp(context)}`, {
    ...CONFIRMS_PER_IP,
    now: context.now(),
  });
  if (!limit.allowed) {
    const wait = String(limit.retryAfterSeconds);
    return data<ConfirmEmailResult>(
      { ok: false, message: tooManyAttemptsMessage(limit.retryAfterSeconds), next },
      { status: 429, headers: { "Retry-After": wait } },
    );
  }
  const done = await confirmEmail(context.db, text(form, "token"), { now: context.now() });
  if (!done) {
    return data<ConfirmEmailResult>(
      { ok: false, message: CONFIRMATION_LINK_INVALID, next },
      { status: 400 },
    );
  }
  return data<ConfirmEmailResult>({
    ok: true,
    message: done.alreadyConfirmed ? EMAIL_ALREADY_CONFIRMED : EMAIL_CONFIRMED,
    next,
  });
}

async function resend(request: Request, context: AppLoadContext, next: string) {
  const user = await requireUser(request, context);
  const r = await sendConfirmationMail(request, context, user, next);
  if (r.outcome === "too-many") {
    const wait = r.retryAfterSeconds ?? 60;
    return data<ConfirmEmailResult>(
      {
        ok: false,
        message: `We have sent you several links in the last hour. Please wait ${Math.ceil(wait / 60)} minutes and try again, and check your spam folder.`,
        next,
      },
      { status: 429, headers: { "Retry-After": String(wait) } },
    );
  }
  if (r.outcome === "already-confirmed") {
    return data<ConfirmEmailResult>({ ok: true, message: EMAIL_ALREADY_CONFIRMED, next });
  }
  if (r.outcome === "failed") {
    return data<ConfirmEmailResult>(
      {
        ok: false,
        message: "The e-mail could not be sent just now. Please try again later.",
        next,
      },
      { status: 503 },
    );
  }
  return data<ConfirmEmailResult>({ ok: true, message: CONFIRMATION_SENT(user.email), next });
}
