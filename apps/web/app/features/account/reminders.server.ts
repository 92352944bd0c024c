/** Deadline reminders on or off: the account page's switch and the one-click unsubscribe link. */
import { checkUnsubscribeLink, remindersOff, setRemindersOff } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";

/** Whether the player gets deadline reminders. */
export async function remindersOn(context: AppLoadContext, userId: number): Promise<boolean> {
  return !(await remindersOff(context.db, userId));
}

export function setRemindersOn(context: AppLoadContext, userId: number, on: boolean) {
  return setRemindersOff(context.db, userId, !on);
}

/** The player an unsubscribe link (`?u=ID&t=TOKEN`) is for, or null when it does not check out. */
export async function unsubscribeLinkUser(
  url: URL,
  context: AppLoadContext,
): Promise<number | null> {
  const id = Number(url.searchParams.get("u"));
  const token = url.searchParams.get("t") ?? "";
  return (await checkUnsubscribeLink(context.db, id, token)) ? id : null;
}
