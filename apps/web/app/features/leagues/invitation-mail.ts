/** The invitation e-mail: plain text for every client, and a simple HTML version. */
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

/** Names typed by players go into a header: one line, no control characters. */
export const oneLine = (s: string) => s.replace(/[\s\p{Cc}]+/gu, " ").trim();

export function invitationMail({
  to,
  leagueName,
  inviter,
  link,
}: InvitationMailInput): OutgoingMail {
  const league = oneLine(leagueName);
  const who = oneLine(inviter) || "A friend";
  const subject = `${who} invited you to the mini league "${league}" on Gravity Fantasy`;
  const text = [
    "Hi,",
    "",
    `${who} invited you to join the mini league "${league}" on Gravity Fantasy, the free fantasy downhill mountain-bike game: pick six real racers within a 1,000,000 budget and see who scores most across the season.`,
    "",
    "Open this link to accept or dismiss the invitation:",
    link,
    "",
    `New to the game? Create your free account with this e-mail address (${to}) and you will come straight back to the invitation.`,
    "",
    "If you did not expect this, ignore this e-mail: nothing happens unless you accept.",
    "",
    "Gravity Fantasy",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#15181d">
<p>Hi,</p>
<p><strong>${escapeHtml(who)}</strong> invited you to join the mini league <strong>${escapeHtml(league)}</strong> on Gravity Fantasy, the free fantasy downhill mountain-bike game.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#c2410c;color:#fff;border-radius:6px;text-decoration:none">See the invitation</a></p>
<p>Or copy this link: ${escapeHtml(link)}</p>
<p>New to the game? Create your free account with this e-mail address (${escapeHtml(to)}) and you will come straight back to the invitation.</p>
<p style="color:#4a5360">If you did not expect this, ignore this e-mail: nothing happens unless you accept.</p>
</body></html>`;
  return { to, subject, text, html };
}
