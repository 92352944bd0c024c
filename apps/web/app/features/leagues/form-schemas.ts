/**
 * The league forms, one schema each, used by the modals before posting (fetched when a form is
 * first focused) and by the action on every post. Field rules come from @game/core.
 */
import { NAME_MESSAGES, type NameProblem } from "@game/core/name-messages";
import { inviteEmailSchema, leagueNameSchema } from "@game/core/schemas";
import { z } from "zod";
import { LEAGUE_INTENTS } from "./forms";
import type { LeagueNoticeCode } from "./notices";

const rowId = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);
const leagueId = rowId;

export const createLeagueFormSchema = z.object({ name: leagueNameSchema });
export const inviteFormSchema = z.object({ leagueId, email: inviteEmailSchema });
/** Accept, dismiss, leave, delete and reset only name a league. */
export const leagueRefFormSchema = z.object({ leagueId });
/** The owner removes a member: the league and the member's user id. */
export const removeMemberFormSchema = z.object({ leagueId, memberId: rowId });
export const intentSchema = z.enum(LEAGUE_INTENTS);

/** The field a validation problem belongs to, and its notice code for posts without JavaScript. */
export function nameProblem(error: z.ZodError): LeagueNoticeCode {
  const message = error.issues[0]?.message;
  if (message === "Give your league a name.") return "name-required";
  const rule = Object.entries(NAME_MESSAGES.league).find(([, text]) => text === message);
  return rule ? NAME_NOTICES[rule[0] as NameProblem] : "name-invalid";
}

/** The notice of each name rule's refusal (decision 0152), so a post without JavaScript says why. */
const NAME_NOTICES: Record<NameProblem, LeagueNoticeCode> = {
  control: "name-hidden-characters",
  invisible: "name-invisible",
  marks: "name-marks",
  scripts: "name-scripts",
  "web-address": "name-web-address",
  reserved: "name-reserved",
};

export function emailProblem(error: z.ZodError): LeagueNoticeCode {
  const issue = error.issues.find((i) => i.path[0] === "email");
  if (!issue) return "not-found";
  return issue.message === "Enter your guest's e-mail address."
    ? "email-required"
    : "email-invalid";
}
