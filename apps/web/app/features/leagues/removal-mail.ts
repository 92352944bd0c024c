/** The e-mail a removed member gets: plain text for every client, and a simple HTML version. */
import type { OutgoingMail } from "@game/db";
import { escapeHtml, oneLine, quoted } from "./invitation-mail";

export interface RemovalMailInput {
  to: string;
  username: string;
  leagueName: string;
  owner: string;
  /** Absolute link to the game, where their own team and other leagues are. */
  link: string;
}

export function removalMail({
  to,
  username,
  leagueName,
  owner,
  link,
}: RemovalMailInput): OutgoingMail {
  // Players' words only in the body, links defused; the subject is ours (decision 0151).
  const league = quoted(leagueName);
  const who = quoted(owner) || "Its owner";
  const name = oneLine(username);
  const subject = "You were removed from a mini league on Gravity Fantasy";
  const text = [
    name ? `Hi ${name},` : "Hi,",
    "",
    `${who}, the owner of the mini league "${league}", has removed you from it. You no longer appear in its standings, and its invite link will not let you back in.`,
    "",
    "Your team, your points and your other leagues are not affected: you keep playing as before.",
    "",
    "If you think this was a mistake, talk to the league's owner: only they can invite you again.",
    "",
    `Your game: ${link}`,
    "",
    "Gravity Fantasy",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#15181d">
<p>${name ? `Hi ${escapeHtml(name)},` : "Hi,"}</p>
<p><strong>${escapeHtml(who)}</strong>, the owner of the mini league <strong>${escapeHtml(league)}</strong>, has removed you from it. You no longer appear in its standings, and its invite link will not let you back in.</p>
<p>Your team, your points and your other leagues are not affected: you keep playing as before.</p>
<p>If you think this was a mistake, talk to the league's owner: only they can invite you again.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#c2410c;color:#fff;border-radius:6px;text-decoration:none">Go to your game</a></p>
</body></html>`;
  return { to, subject, text, html };
}
