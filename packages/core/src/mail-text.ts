/**
 * Players' words in the game's e-mails and on other players' screens (docs/decisions/0151).
 * A league name is chosen by a stranger to the person it is mailed to, so it must never become a
 * link, and a guest's e-mail address is the guest's, not the league's.
 */

/** Dots a browser or mail client reads as a domain's dot (IDNA maps the wide ones to "."). */
const DOTS = ".\u3002\uFF0E\uFF61\u2024";
const LABEL = "[\\p{L}\\p{N}\\p{M}_-]";

/**
 * A dot between two parts of a name where the part after it holds a letter: what makes
 * "evil.example", "www.prize.com" or "me@mail.example" look like an address to a linkifier.
 * "v1.2", "3.5" and a sentence's full stop ("Go. Win") stay as they are.
 */
const LINKABLE_DOT = new RegExp(`(?<=${LABEL})[${DOTS}](?=${LABEL}*\\p{L})`, "gu");

/**
 * Text typed by a player, made safe to quote in an e-mail: nothing in it reads as a link. Every
 * dot of a would-be address is put in brackets ("evil[.]example/prize") and "://" becomes
 * "[:]//", the usual way to write an address that must not be followed. Other text is unchanged,
 * and defusing twice changes nothing more.
 */
export function defuseLinks(text: string): string {
  return text.replace(LINKABLE_DOT, "[$&]").replaceAll("://", "[:]//");
}

/** Whether `text` still holds something a linkifier would take for an address. */
export function looksLinkable(text: string): boolean {
  return new RegExp(LINKABLE_DOT.source, "u").test(text) || text.includes("://");
}

const MASK = "***";

/**
 * An e-mail address as a league member who is not its owner sees an invitation: the first
 * character of the name and of the domain, and the top-level domain ("bob@example.com" becomes
 * "b***@e***.com"). Enough to tell one's own invitations apart, too little to learn the address.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return MASK;
  const first = (s: string) => Array.from(s)[0] ?? "";
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const tld = dot > 0 ? domain.slice(dot) : "";
  return `${first(local)}${MASK}@${first(domain)}${MASK}${tld}`;
}

/**
 * The mailbox an address reaches, for per-recipient limits: lower-cased, without a "+tag" in its
 * local part (bob+1@example.com and bob+2@example.com land in one mailbox, so they share a cap).
 */
export function mailboxKey(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return email.trim().toLowerCase();
  const local = email.slice(0, at);
  const plus = local.indexOf("+");
  return `${plus > 0 ? local.slice(0, plus) : local}${email.slice(at)}`.trim().toLowerCase();
}
