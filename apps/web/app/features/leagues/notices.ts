/**
 * League notices: the actions redirect back with a short code in the URL, the panel turns it into
 * a sentence. Only known codes are shown, so a crafted link cannot put words on the page.
 */
import { INVITATIONS_PER_DAY, MAX_OWNED_LEAGUES } from "@game/core/constants";
import { NAME_MESSAGES } from "@game/core/name-messages";
import { CONFIRM_FIRST } from "~/features/account/email-confirmation";

export const NOTICE_PARAM = "leagueNotice";
/** Leave, delete and remove ask first: the action redirects back with these to ask. */
export const CONFIRM_PARAM = "leagueConfirm";
export const LEAGUE_PARAM = "league";
/** The member a remove confirmation is about (their user id). */
export const MEMBER_PARAM = "member";
/** Opens a modal without JavaScript (`?leagueDialog=create`, `?leagueDialog=invite&league=5`). */
export const DIALOG_PARAM = "leagueDialog";

type Tone = "success" | "info" | "error";

export const LEAGUE_NOTICES = {
  created: { tone: "success", text: "League created. Now invite your friends!" },
  invited: { tone: "success", text: "Invitation sent." },
  "invite-mail-failed": {
    tone: "error",
    text: "Invitation saved, but the e-mail could not be sent. Share the league link instead.",
  },
  "already-member": { tone: "info", text: "That player is already in this league." },
  "already-invited": { tone: "info", text: "That e-mail address is already invited." },
  "invite-limit": {
    tone: "error",
    text: "This league has too many open invitations. Wait for some answers first.",
  },
  "invite-rate": {
    tone: "error",
    text: "You have sent a lot of invitations. Please wait a while and try again.",
  },
  "invite-daily": {
    tone: "error",
    text: `You have sent ${INVITATIONS_PER_DAY} invitations today, the most for one day. Share your league's invite link instead, or invite more tomorrow.`,
  },
  "invite-recipient": {
    tone: "error",
    text: "That address has had enough league invitations for today. Send your friend the league's invite link instead, or try again tomorrow.",
  },
  "league-limit": {
    tone: "error",
    text: `You already own ${MAX_OWNED_LEAGUES} leagues, the most one player can. Delete one to create another.`,
  },
  "confirm-first": { tone: "error", text: CONFIRM_FIRST },
  accepted: { tone: "success", text: "You joined the league. Good luck!" },
  joined: { tone: "success", text: "You joined the league. Good luck!" },
  "already-joined": { tone: "info", text: "You are already in this league." },
  dismissed: { tone: "info", text: "Invitation dismissed." },
  left: { tone: "info", text: "You left the league." },
  "ownership-passed": {
    tone: "info",
    text: "You left the league. Its longest-standing member owns it now.",
  },
  "left-deleted": {
    tone: "info",
    text: "You left the league. Nobody else was in it, so it was deleted.",
  },
  deleted: { tone: "info", text: "League deleted." },
  "member-removed": {
    tone: "success",
    text: "Member removed. We have e-mailed them to let them know.",
  },
  "member-removed-mail-failed": {
    tone: "error",
    text: "Member removed, but the e-mail telling them could not be sent.",
  },
  "remove-self": {
    tone: "error",
    text: "You cannot remove yourself. To go, leave the league instead.",
  },
  "invite-removed": {
    tone: "error",
    text: "The league's owner removed that player. Only the owner can invite them back.",
  },
  "code-reset": { tone: "success", text: "New invite link ready. The old link no longer works." },
  renewed: {
    tone: "success",
    text: "League renewed for the new competition, with all its members. We have e-mailed them. The old league keeps its final table.",
  },
  "renewed-mail-failed": {
    tone: "error",
    text: "League renewed with all its members, but the e-mails telling them could not all be sent.",
  },
  "renew-refused": {
    tone: "info",
    text: "This league already plays the competition being played now, or has been renewed.",
  },
  "no-team": { tone: "error", text: "Save your team first, then create a league." },
  "not-found": { tone: "error", text: "That league or invitation is not available any more." },
  "name-required": { tone: "error", text: "Give your league a name." },
  "name-invalid": { tone: "error", text: "That league name cannot be used. Try a shorter one." },
  "name-hidden-characters": { tone: "error", text: NAME_MESSAGES.league.control },
  "name-invisible": { tone: "error", text: NAME_MESSAGES.league.invisible },
  "name-marks": { tone: "error", text: NAME_MESSAGES.league.marks },
  "name-scripts": { tone: "error", text: NAME_MESSAGES.league.scripts },
  "name-web-address": { tone: "error", text: NAME_MESSAGES.league["web-address"] },
  "name-reserved": { tone: "error", text: NAME_MESSAGES.league.reserved },
  "email-required": { tone: "error", text: "Enter your guest's e-mail address." },
  "email-invalid": { tone: "error", text: "Enter a valid e-mail address." },
  failed: {
    tone: "error",
    text: "Something went wrong and nothing was changed. Please try again.",
  },
} as const satisfies Record<string, { tone: Tone; text: string }>;

export type LeagueNoticeCode = keyof typeof LEAGUE_NOTICES;

export interface LeagueNotice {
  code: LeagueNoticeCode;
  tone: Tone;
  text: string;
}

export function isNoticeCode(code: unknown): code is LeagueNoticeCode {
  return typeof code === "string" && Object.hasOwn(LEAGUE_NOTICES, code);
}

export function noticeFor(code: string | null | undefined): LeagueNotice | null {
  if (!isNoticeCode(code)) return null;
  return { code, ...LEAGUE_NOTICES[code] };
}

/**
 * `path` with the given search parameters set (replacing any earlier league parameters) and an
 * optional fragment. `path` is a same-site path, possibly with its own query.
 */
export function withParams(
  path: string,
  params: Record<string, string | number | undefined>,
  hash?: string,
): string {
  const url = new URL(path, "http://x");
  for (const name of [NOTICE_PARAM, CONFIRM_PARAM, LEAGUE_PARAM, MEMBER_PARAM, DIALOG_PARAM]) {
    url.searchParams.delete(name);
  }
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined) url.searchParams.set(k, String(v));
  }
  url.hash = hash ?? "";
  return `${url.pathname}${url.search}${url.hash}`;
}
