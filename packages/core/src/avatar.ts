/**
 * The generated avatar of a racer without a portrait: initials on a colour pair taken from a hash
 * of the name and nation, so the same racer looks the same on every page, widget and embed, and
 * two racers rarely share a look (docs/decisions/0111-generated-racer-avatars.md).
 *
 * The widgets package carries a copy of this file (it may not depend on this package at run
 * time); `packages/widgets/src/core-compat.test.ts` fails when the two differ.
 */

export interface Avatar {
  /** One or two upper-case letters ("LB" for Loïc Bruni), "?" when the name has none. */
  initials: string;
  /** Background colour, `hsl(h,s%,l%)` (CSS and SVG take it as it is). */
  background: string;
  /** Text colour, `hsl(h,s%,l%)`, at least 4.5:1 against the background. */
  foreground: string;
}

/** The contrast the initials keep against their background (WCAG AA for normal text). */
export const AVATAR_MIN_CONTRAST = 4.5;

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

/** `hsl(h,s%,l%)` -> [r, g, b] in 0..255 (CSS's conversion). */
function hslToRgb(color: string): [number, number, number] {
  const [h = 0, s = 0, l = 0] = (color.match(/[\d.]+/g) ?? []).map(Number);
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio (1 to 21) of two colours written as `hsl(h,s%,l%)` or `#rrggbb`. */
export function contrastRatio(a: string, b: string): number {
  const rgb = (c: string) =>
    c.startsWith("#")
      ? ([1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16)) as [number, number, number])
      : hslToRgb(c);
  const [x, y] = [luminance(rgb(a)), luminance(rgb(b))];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
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
