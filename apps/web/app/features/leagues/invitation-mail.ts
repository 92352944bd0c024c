/** The invitation e-mail: plain text for every client, and a simple HTML version. */
import { defuseLinks } from "@game/core/mail-text";
import type { OutgoingMail } from "@game/db";

export interface InvitationMailInput {
  to: string;
  leagueName: string;
  inviter: string;
  /** Absolute link to the invitation page. */
  link: string;
}

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/** Names typed by players, on one line without control characters. */
export const oneLine = (s: string) => s.replace(/[\s\p{Cc}]+/gu, " ").trim();

/**
 * A player's words, quoted in a mail to someone who does not know them: one line, and nothing
 * that reads as a link ("evil[.]example/prize"). Only ever in the body, framed as what it is.
 */
export const quoted = (s: string) => defuseLinks(oneLine(s));

/**
 * The invitation (decision 0151). The subject is ours alone: a league name there would read as
 * the game's own words ("WIN 500 EUR now: claim at ..."). In the body the name and the inviter are
 * quoted as what players chose, with links defused; the only link is the game's own.
 */
export function invitationMail({
  to,
  leagueName,
  inviter,
  link,
}: InvitationMailInput): OutgoingMail {
  const league = quoted(leagueName);
  const who = quoted(inviter);
  const by = who ? `The player "${who}"` : "A player";
  const subject = "You are invited to a mini league on Gravity Fantasy";
  const text = [
    "Hi,",
    "",
    `${by} invited you to join their mini league on Gravity Fantasy, the free fantasy downhill mountain-bike game: pick six real racers within a 1,000,000 budget and see who scores most across the season.`,
    "",
    `The league's name, as its players chose it: "${league}"`,
    "",
    "Open this link to accept or dismiss the invitation:",
    link,
    "",
    `New to the game? Create your free account with this e-mail address (${to}) and confirm it, and you will come straight back to the invitation.`,
    "",
    "Gravity Fantasy never asks you for money, and a league's name is not a message from us. If you did not expect this, ignore this e-mail: nothing happens unless you accept.",
    "",
    "Gravity Fantasy",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#15181d">
<p>Hi,</p>
<p>${who ? `The player <strong>${escapeHtml(who)}</strong>` : "A player"} invited you to join their mini league on Gravity Fantasy, the free fantasy downhill mountain-bike game.</p>
<p>The league's name, as its players chose it: <q>${escapeHtml(league)}</q></p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#c2410c;color:#fff;border-radius:6px;text-decoration:none">See the invitation</a></p>
<p>Or copy this link: ${escapeHtml(link)}</p>
<p>New to the game? Create your free account with this e-mail address (${escapeHtml(to)}) and confirm it, and you will come straight back to the invitation.</p>
<p style="color:#4a5360">Gravity Fantasy never asks you for money, and a league's name is not a message from us. If you did not expect this, ignore this e-mail: nothing happens unless you accept.</p>
</body></html>`;
  return { to, subject, text, html };
}
