/**
 * The generated avatar of a racer without a portrait (docs/decisions/0111): initials on a colour
 * pair hashed from the name and nation, so a racer looks the same on every page, widget and
 * embed. Its one home: the host app and the embed draw it through the widgets' Portrait; the
 * contrast of every colour pair is proven in `avatar.test.ts`.
 */

export interface Avatar {
  /** One or two upper-case letters ("LB" for Loïc Bruni), "?" when the name has none. */
  initials: string;
  /** Background colour, `hsl(h,s%,l%)` (CSS and SVG take it as it is). */
  background: string;
  /** Text colour, `hsl(h,s%,l%)`, at least 4.5:1 against the background. */
  foreground: string;
}

/** The first letter (or digit) of a name part, upper-cased, with its accent kept ("é" -> "É"). */
function firstLetter(part: string): string {
  const match = /[\p{L}\p{N}]\p{M}*/u.exec(part.normalize("NFC"));
  if (!match) return "";
  // "ß" upper-cases to "SS", "ﬁ" to "FI": keep such a letter as it is, never two.
  const upper = match[0].toUpperCase();
  return upper.length > match[0].length ? match[0] : upper;
}

/**
 * "Loïc" "Bruni" -> "LB"; "Jean-Pierre" "Lopes" -> "JL"; one name ("Pelé", the other left
 * empty) -> its first letter; no letter at all -> "?".
 */
export function avatarInitials(firstName: string, lastName: string): string {
  return firstLetter(firstName ?? "") + firstLetter(lastName ?? "") || "?";
}

/** FNV-1a, 32 bits, over UTF-16 code units: small, fast and spreads short strings well. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The key a racer's look is hashed from: case and outer spaces do not change it. */
function avatarKey(firstName: string, lastName: string, nation: string): string {
  const clean = (s: string) => (s ?? "").toLowerCase().trim();
  return `${clean(firstName)} ${clean(lastName)}|${clean(nation)}`;
}

/**
 * The avatar of a racer: initials from the name, a colour pair from a hash of name and nation.
 * Half the racers get a deep background with white initials, half a pale one with dark initials
 * of the same hue. The lightness bands are chosen so that every hue and saturation reads at
 * 4.5:1 or more (the property test checks all of them): no conversion or search at run time,
 * so the widgets' copy stays a few hundred bytes.
 */
export function racerAvatar(racer: {
  firstName: string;
  lastName: string;
  origin?: string | null | undefined;
}): Avatar {
  const h = hash(avatarKey(racer.firstName, racer.lastName, racer.origin ?? ""));
  const hue = h % 360;
  const sat = 45 + ((h >>> 9) % 4) * 10; // 45-75 %
  const step = (h >>> 12) % 3;
  const dark = ((h >>> 11) & 1) === 0;
  return {
    initials: avatarInitials(racer.firstName, racer.lastName),
    background: `hsl(${hue},${sat}%,${(dark ? 18 : 84) + step * 3}%)`,
    foreground: dark ? "hsl(0,0%,100%)" : `hsl(${hue},50%,18%)`,
  };
}
