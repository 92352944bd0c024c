/**
 * The deadline reminder's words and links (docs/decisions/0103), the one place they are written:
 * the web app's scheduled job and `game-admin reminders send` both send through the database's
 * reminder batch, which takes this message and fills its placeholders per player in SQL (a
 * thousand mails per statement), so every mail says the same whoever sends it.
 */

/** The placeholders the batch fills per player. */
export const REMINDER_PLACEHOLDERS = {
  /** The player's username (filled last, so a name that looks like a placeholder stays a name). */
  name: "{{name}}",
  /** The lock moment in the player's time zone ("Sunday 18 April 2027, 06:00 CEST"). */
  lock: "{{lock}}",
  /** Why the player is reminded: `noTeam` or `fixTeam`. */
  what: "{{what}}",
  /** The player's unsubscribe link (`unsubscribeLink` filled in). */
  unsubscribe: "{{unsubscribe}}",
  /** In `unsubscribeLink`: the player's id. */
  user: "{{user}}",
  /** In `unsubscribeLink`: the link's signature. */
  token: "{{token}}",
} as const;

/** The round a reminder is about. */
export interface ReminderRoundRef {
  id: number;
  name: string;
}

/** A reminder's templates; `{{...}}` are REMINDER_PLACEHOLDERS. */
export interface ReminderMessage {
  /** The subject: `{{lock}}`. */
  subject(round: ReminderRoundRef): string;
  /** The text: `{{name}}`, `{{lock}}`, `{{what}}`, `{{unsubscribe}}`. */
  text(round: ReminderRoundRef): string;
  /** `{{what}}` for a player with no team for the round. */
  noTeam: string;
  /** `{{what}}` for a player whose team has a racer out of the round. */
  fixTeam: string;
  /** The unsubscribe link (also the List-Unsubscribe header): `{{user}}`, `{{token}}`. */
  unsubscribeLink: string;
}

/** The game's reminder, its links on `baseUrl` (the game's public address). */
export function reminderMessage(baseUrl: string): ReminderMessage {
  const base = baseUrl.replace(/\/+$/, "");
  const { name, lock, what, unsubscribe, user, token } = REMINDER_PLACEHOLDERS;
  return {
    subject: (round) => `${round.name}: teams lock ${lock}`,
    text: (round) =>
      [
        `Hi ${name},`,
        "",
        `${round.name} locks on ${lock}. ${what}`,
        "",
        `Your team: ${base}/team-setup?game=${round.id}`,
        "",
        "You get this reminder once per round, 24 hours before the lock, when your team needs you.",
        `Stop these reminders: ${unsubscribe}`,
        `(You can turn them back on in your account: ${base}/account/reminders)`,
      ].join("\n"),
    noTeam: "You have no team for it yet: pick your six riders before the lock.",
    fixTeam:
      "Your team needs fixing before the lock (a racer is out): open it and replace them, or it will not play as it is.",
    unsubscribeLink: `${base}/reminders/unsubscribe?u=${user}&t=${token}`,
  };
}

/** One player's values for the placeholders. */
export interface ReminderValues {
  name: string;
  lock: string;
  noTeam: boolean;
  userId: number;
  token: string;
}

/**
 * One player's reminder, filled as the database's batch fills it (in the same order, the name
 * last): for tests and previews.
 */
export function fillReminder(
  message: ReminderMessage,
  round: ReminderRoundRef,
  values: ReminderValues,
): { subject: string; text: string; unsubscribe: string } {
  const p = REMINDER_PLACEHOLDERS;
  const unsubscribe = message.unsubscribeLink
    .replaceAll(p.user, String(values.userId))
    .replaceAll(p.token, values.token);
  const text = message
    .text(round)
    .replaceAll(p.lock, values.lock)
    .replaceAll(p.what, values.noTeam ? message.noTeam : message.fixTeam)
    .replaceAll(p.unsubscribe, unsubscribe)
    .replaceAll(p.name, values.name);
  return { subject: message.subject(round).replaceAll(p.lock, values.lock), text, unsubscribe };
}
