/**
 * What the name rules (names.ts, decision 0152) say when they refuse a name: plain text with no
 * package behind it, so a page can show a refusal without loading the rules (docs/decisions/0178).
 */
export type NameKind = "username" | "league";

/** Why a name is refused; each has a message per kind below. */
export type NameProblem =
  | "control"
  | "invisible"
  | "marks"
  | "scripts"
  | "web-address"
  | "reserved";

export const LEAGUE_NAME_HIDDEN_CHARACTERS =
  "League names cannot contain control or text-direction characters: they would hide or reorder the name other players see.";

export const NAME_MESSAGES: Record<NameKind, Record<NameProblem, string>> = {
  league: {
    control: LEAGUE_NAME_HIDDEN_CHARACTERS,
    invisible:
      "League names cannot contain invisible characters (zero-width spaces, fillers, blank symbols): players would not see the name you typed.",
    marks:
      "League names can put at most 4 accents on a letter, each different, and never on a space.",
    scripts:
      "Write the league name in one common alphabet (Latin letters may go with Chinese, Japanese or Korean): mixed alphabets can imitate other names.",
    "web-address":
      "League names cannot contain web or e-mail addresses: invitations would show them as links.",
    reserved: "League names cannot use the name Gravity Fantasy: the league would look official.",
  },
  username: {
    control: "Usernames cannot contain control or text-direction characters.",
    invisible: "Usernames cannot contain invisible characters.",
    marks: "Usernames cannot stack accents.",
    scripts: "Write the username in one alphabet.",
    "web-address": "Usernames cannot be web or e-mail addresses.",
    reserved:
      "That username is reserved: it could pass for Gravity Fantasy or its staff. Choose another one.",
  },
};
