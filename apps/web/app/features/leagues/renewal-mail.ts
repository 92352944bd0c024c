/** The e-mail each member gets when the owner renews their league into a new competition. */
import type { OutgoingMail } from "@game/db";
import { escapeHtml, oneLine, quoted } from "./invitation-mail";

export interface RenewalMailInput {
  to: string;
  username: string;
  leagueName: string;
  owner: string;
  competition: string;
  /** Absolute link to the leagues page, where the renewed league is. */
  link: string;
}

export function renewalMail({
  to,
  username,
  leagueName,
  owner,
  competition,
  link,
}: RenewalMailInput): OutgoingMail {
  // Players' words only in the body, links defused; the subject is ours (decision 0151).
  const league = quoted(leagueName);
  const who = quoted(owner) || "Its owner";
  const name = oneLine(username);
  const what = oneLine(competition);
  const subject = "Your mini league plays the new competition on Gravity Fantasy";
  const text = [
    name ? `Hi ${name},` : "Hi,",
    "",
    `${who} has renewed the mini league "${league}" for ${what}. You are in it already: build your team for ${what} and the league's new table starts with its first round.`,
    "",
    "The league's table from the last competition stays as it finished.",
    "",
    `Your leagues: ${link}`,
    "",
    "Gravity Fantasy",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#15181d">
<p>${name ? `Hi ${escapeHtml(name)},` : "Hi,"}</p>
<p><strong>${escapeHtml(who)}</strong> has renewed the mini league <strong>${escapeHtml(league)}</strong> for <strong>${escapeHtml(what)}</strong>. You are in it already: build your team for ${escapeHtml(what)} and the league's new table starts with its first round.</p>
<p>The league's table from the last competition stays as it finished.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#c2410c;color:#fff;border-radius:6px;text-decoration:none">See your leagues</a></p>
</body></html>`;
  return { to, subject, text, html };
}
