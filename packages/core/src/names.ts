/**
 * Names other players read: usernames and league names (decision 0152). They follow the Unicode
 * identifier guidance (UTS #39): nothing invisible, no stacks of combining marks, one alphabet
 * per name ("Highly Restrictive"), no web addresses, and nothing that passes for the site or
 * its staff. Every rule reads Unicode properties, so new Unicode versions need no table here.
 */
import { LinkifyIt } from "linkify-it";
import tlds from "tlds";
import type { NameKind, NameProblem } from "./name-messages.js";

/**
 * Control characters (C0, DEL, C1) and the invisible marks that reorder text (bidi embeddings,
 * overrides, isolates, direction marks, line/paragraph separators): in a name other players
 * read, they hide or flip what is shown.
 */
export const CONTROL_OR_BIDI =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;

/** UTS #39 5.4: more than this many nonspacing marks in a row is refused. */
export const MAX_STACKED_MARKS = 4;

// --- invisible characters ---------------------------------------------------------------------

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
const FORMAT = /\p{Cf}/u;
/** Shows nothing (braille blank) or nothing meaningful (private use, unassigned, lone halves). */
const BLANK = /[\u2800\p{Co}\p{Cn}\p{Cs}]/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const EMOJI_MODIFIER = /\p{Emoji_Modifier}/u;
const VISIBLE = /[\p{L}\p{N}\p{S}\p{P}]/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const ZWNJ = "\u200c";
const ZWJ = "\u200d";
const VS15 = "\ufe0e";
const VS16 = "\ufe0f";
const BLACK_FLAG = "\u{1f3f4}";
const CANCEL_TAG = "\u{e007f}";
/** The tag letters and digits of a subdivision flag (🏴 + "gbsct" + cancel tag = Scotland). */
const FLAG_TAG = /[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]/u;

/**
 * Scripts whose spelling needs a zero-width joiner or non-joiner between letters (Persian and
 * Arabic words, the conjuncts of the Indic scripts), per IDNA's CONTEXTJ rules.
 */
const JOINING_SCRIPTS = [
  "Arabic",
  "Bengali",
  "Devanagari",
  "Gujarati",
  "Gurmukhi",
  "Kannada",
  "Khmer",
  "Malayalam",
  "Myanmar",
  "Oriya",
  "Sinhala",
  "Tamil",
  "Telugu",
].map((s) => new RegExp(`\\p{Script_Extensions=${s}}`, "u"));

const sameJoiningScript = (a: string, b: string) =>
  JOINING_SCRIPTS.some((script) => script.test(a) && script.test(b));

/** The visible character an emoji's variation selectors and skin tones hang on, before `i`. */
function emojiBefore(chars: readonly string[], i: number): string | undefined {
  let j = i - 1;
  while (j >= 0 && (chars[j] === VS16 || EMOJI_MODIFIER.test(chars[j]!))) j--;
  return chars[j];
}

/** Where a subdivision flag's tag sequence starting at `i` (the black flag) ends, or -1. */
function flagTagsEnd(chars: readonly string[], i: number): number {
  let j = i + 1;
  while (j < chars.length && FLAG_TAG.test(chars[j]!)) j++;
  return j > i + 1 && chars[j] === CANCEL_TAG ? j : -1;
}

/**
 * Whether the invisible character at `i` does a visible job: a joiner inside an emoji sequence
 * (👨‍👩‍👧) or inside a word of a script that needs it, a variation selector after a visible
 * character (❤️).
 */
function invisibleAllowedAt(chars: readonly string[], i: number): boolean {
  const c = chars[i]!;
  const before = chars[i - 1];
  const after = chars[i + 1];
  if (c === VS15 || c === VS16) return before !== undefined && VISIBLE.test(before);
  if (c !== ZWJ && c !== ZWNJ) return false;
  if (before === undefined || after === undefined) return false;
  if (c === ZWJ) {
    const emoji = emojiBefore(chars, i);
    if (emoji && PICTOGRAPH.test(emoji) && PICTOGRAPH.test(after)) return true;
  }
  return LETTER_OR_MARK.test(before) && /\p{L}/u.test(after) && sameJoiningScript(before, after);
}

function hasInvisible(chars: readonly string[]): boolean {
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === BLACK_FLAG) {
      const end = flagTagsEnd(chars, i);
      if (end !== -1) {
        i = end;
        continue;
      }
    }
    if (BLANK.test(c)) return true;
    if ((DEFAULT_IGNORABLE.test(c) || FORMAT.test(c)) && !invisibleAllowedAt(chars, i)) return true;
  }
  return false;
}

// --- combining marks --------------------------------------------------------------------------

const NONSPACING_MARK = /[\p{Mn}\p{Me}]/u;
const MARK = /\p{M}/u;
const SPACE = /\s/u;

/** UTS #39 5.4: no more than MAX_STACKED_MARKS in a row, no mark twice in a row, none unborne. */
function hasStackedMarks(name: string): boolean {
  const chars = [...name.normalize("NFD")];
  let run = 0;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (!NONSPACING_MARK.test(c)) {
      run = 0;
      // A spacing mark (Mc) still needs a character to sit on.
      if (MARK.test(c) && (i === 0 || SPACE.test(chars[i - 1]!))) return true;
      continue;
    }
    run += 1;
    if (run > MAX_STACKED_MARKS) return true;
    if (run > 1 && chars[i - 1] === c) return true;
    if (run === 1 && (i === 0 || SPACE.test(chars[i - 1]!))) return true;
  }
  return false;
}

// --- scripts ----------------------------------------------------------------------------------

/** UAX #31 Table 5, the scripts in modern customary use (Common and Inherited aside). */
export const RECOMMENDED_SCRIPTS = [
  "Arabic",
  "Armenian",
  "Bengali",
  "Bopomofo",
  "Cyrillic",
  "Devanagari",
  "Ethiopic",
  "Georgian",
  "Greek",
  "Gujarati",
  "Gurmukhi",
  "Han",
  "Hangul",
  "Hebrew",
  "Hiragana",
  "Kannada",
  "Katakana",
  "Khmer",
  "Lao",
  "Latin",
  "Malayalam",
  "Myanmar",
  "Oriya",
  "Sinhala",
  "Tamil",
  "Telugu",
  "Thaana",
  "Thai",
  "Tibetan",
] as const;

const SCRIPT_TESTS = RECOMMENDED_SCRIPTS.map(
  (s) => [s, new RegExp(`\\p{Script_Extensions=${s}}`, "u")] as const,
);
/** Digits, punctuation, symbols, emoji, most combining marks: at home in every script. */
const ANY_SCRIPT = /[\p{Script_Extensions=Common}\p{Script_Extensions=Inherited}]/u;

/** UTS #39 5.1: Han, kana and Hangul also count as the writing systems they take part in. */
const WRITING_SYSTEMS: Record<string, readonly string[]> = {
  Han: ["Japanese", "Korean", "Han with Bopomofo"],
  Hiragana: ["Japanese"],
  Katakana: ["Japanese"],
  Hangul: ["Korean"],
  Bopomofo: ["Han with Bopomofo"],
};

/**
 * The scripts a character may belong to (its Script_Extensions, augmented), "any" for Common
 * and Inherited, or null for a script outside the recommended set.
 */
function scriptsOf(c: string): Set<string> | "any" | null {
  if (ANY_SCRIPT.test(c)) return "any";
  const found = new Set<string>();
  for (const [script, test] of SCRIPT_TESTS) {
    if (!test.test(c)) continue;
    found.add(script);
    for (const system of WRITING_SYSTEMS[script] ?? []) found.add(system);
  }
  return found.size > 0 ? found : null;
}

/**
 * UTS #39 5.2, Highly Restrictive: every character from the recommended scripts, and the whole
 * name in one script, or Latin with Japanese, Korean, or Han with Bopomofo.
 */
const HIGHLY_RESTRICTIVE_PAIRS = [
  ["Latin", "Japanese"],
  ["Latin", "Korean"],
  ["Latin", "Han with Bopomofo"],
] as const;

function mixesScripts(name: string): boolean {
  const sets: Set<string>[] = [];
  for (const c of name) {
    const scripts = scriptsOf(c);
    if (scripts === null) return true;
    if (scripts !== "any") sets.push(scripts);
  }
  if (sets.length === 0) return false;
  const common = [...sets[0]!].filter((s) => sets.every((set) => set.has(s)));
  if (common.length > 0) return false;
  return !HIGHLY_RESTRICTIVE_PAIRS.some((pair) =>
    sets.every((set) => pair.some((s) => set.has(s))),
  );
}

// --- web addresses ----------------------------------------------------------------------------

// Every top-level domain, so "rider.team" and "prize.xyz" count as mail programs link them.
const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true }).tlds(tlds);

/** Compatibility forms folded (fullwidth "．"), ideographic full stops read as the dots they act as. */
function folded(name: string): string {
  return name.normalize("NFKC").replace(/[\u3002\uff61]/gu, ".");
}

function hasWebAddress(name: string): boolean {
  return linkify.test(folded(name));
}

// --- the site and its staff -------------------------------------------------------------------

/**
 * The comparison form of UTS #39's skeleton, for Latin look-alikes: compatibility forms folded,
 * lower case, letters and digits only, the usual digit and letter swaps undone ("Adm1n",
 * "adrnin", "4dmin" all read "admin").
 */
export function nameSkeleton(name: string): string {
  return folded(name)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}|]/gu, "")
    .replace(/rn/g, "m")
    .replace(/vv/g, "w")
    .replace(/cl/g, "d")
    .replace(/[01l|345789]/g, (c) => SWAPS[c]!);
}
const SWAPS: Record<string, string> = {
  "0": "o",
  "1": "i",
  l: "i",
  "|": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "8": "b",
  "9": "g",
};

const BRAND = nameSkeleton("gravityfantasy");

/** Words a username cannot be made of: staff, the system, the mailboxes of the site. */
export const RESERVED_USERNAME_WORDS = [
  "abuse",
  "admin",
  "administrator",
  "admins",
  "helpdesk",
  "hostmaster",
  "mailerdaemon",
  "mod",
  "moderator",
  "moderators",
  "mods",
  "noreply",
  "official",
  "postmaster",
  "root",
  "security",
  "staff",
  "superuser",
  "support",
  "sysadmin",
  "sysop",
  "system",
  "webmaster",
] as const;
const RESERVED = new Set(RESERVED_USERNAME_WORDS.map(nameSkeleton));
/** Words that cannot start or end a username either ("admin_bob", "siteadmin"). */
const RESERVED_EDGES = ["admin", "administrator", "moderator", "sysadmin"].map(nameSkeleton);

/** The words of a name: split at anything but letters and digits, then also at camelCase humps. */
function words(name: string): string[] {
  const plain = folded(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
  return [...plain, ...plain.flatMap((w) => w.split(/(?<=\p{Ll})(?=\p{Lu})/u))];
}

function isReservedWord(word: string): boolean {
  const trimmed = word.replace(/^\p{N}+|\p{N}+$/gu, "");
  return (
    RESERVED.has(nameSkeleton(word)) || (trimmed !== "" && RESERVED.has(nameSkeleton(trimmed)))
  );
}

function impersonates(name: string, kind: NameKind): boolean {
  const skeleton = nameSkeleton(name);
  if (skeleton.includes(BRAND)) return true;
  if (kind === "league") return false;
  const bare = nameSkeleton(name.replace(/^\p{N}+|\p{N}+$/gu, ""));
  if (RESERVED.has(skeleton) || RESERVED.has(bare)) return true;
  if (RESERVED_EDGES.some((w) => bare.startsWith(w) || bare.endsWith(w))) return true;
  return words(name).some(isReservedWord);
}

// --- the rule ---------------------------------------------------------------------------------

/**
 * The first reason `name` (already trimmed) cannot be used as a `kind`, or null when it can.
 * Length and, for usernames, the allowed characters are the schemas' business.
 */
export function nameProblem(name: string, kind: NameKind): NameProblem | null {
  if (CONTROL_OR_BIDI.test(name)) return "control";
  if (hasInvisible([...name])) return "invisible";
  if (hasStackedMarks(name)) return "marks";
  if (mixesScripts(folded(name))) return "scripts";
  if (hasWebAddress(name)) return "web-address";
  if (impersonates(name, kind)) return "reserved";
  return null;
}
