/**
 * The generated avatar of a racer without a portrait, a copy of `@game/core`'s `avatar.ts` (the
 * widgets may not need that package at run time). `core-compat.test.ts` fails when they differ.
 */

export interface Avatar {
  /** One or two upper-case letters ("LB" for Loïc Bruni), "?" when the name has none. */
  initials: string;
  /** Background colour, `#rrggbb`. */
  background: string;
  /** Text colour, `#rrggbb`, at least 4.5:1 against the background. */
  foreground: string;
}

/** The contrast the initials keep against their background (WCAG AA for normal text). */
export const AVATAR_MIN_CONTRAST = 4.5;

/** The first letter (or digit) of a name part, upper-cased, with its accent kept ("é" -> "É"). */
function firstLetter(part: string): string {
  const match = /[\p{L}\p{N}]\p{M}*/u.exec(part.normalize("NFC"));
  if (!match) return "";
  const upper = match[0].toUpperCase();
  // "ß" upper-cases to "SS": keep the letter itself rather than two.
  return [...upper.normalize("NFC")].length > [...match[0]].length ? match[0] : upper;
}

function words(name: string): string[] {
  return name.split(/[\s\-‐‑–—'’.]+/u).filter((w) => firstLetter(w) !== "");
}

/**
 * "Loïc" "Bruni" -> "LB"; "Jean-Pierre" "Lopes" -> "JL"; a single name ("Pelé", or a first or
 * last name left empty) -> its first letter, or the first letters of its first and last words.
 */
export function avatarInitials(firstName: string, lastName: string): string {
  const first = words(firstName ?? "");
  const last = words(lastName ?? "");
  if (first.length > 0 && last.length > 0) {
    return firstLetter(first[0] as string) + firstLetter(last[0] as string);
  }
  const only = first.length > 0 ? first : last;
  if (only.length === 0) return "?";
  if (only.length === 1) return firstLetter(only[0] as string);
  return firstLetter(only[0] as string) + firstLetter(only[only.length - 1] as string);
}

/** FNV-1a, 32 bits: small, fast and spreads short strings well. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    h ^= code & 0xff;
    h = Math.imul(h, 0x01000193);
    h ^= code >>> 8;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255)) as [number, number, number];
}

function hex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const rgb = (c: string) =>
    [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16)) as [number, number, number];
  const [x, y] = [luminance(rgb(a)), luminance(rgb(b))];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** The key a racer's look is hashed from: case, accents and spacing do not change it. */
function avatarKey(firstName: string, lastName: string, nation: string): string {
  const clean = (s: string) => (s ?? "").normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();
  return `${clean(firstName)} ${clean(lastName)}|${clean(nation)}`;
}

/**
 * The avatar of a racer: initials from the name, a colour pair from a hash of name and nation.
 * Half the racers get a deep background with light initials, half a pale one with dark initials,
 * both tinted with the racer's hue; the lightness moves until the pair reads at 4.5:1.
 */
export function racerAvatar(racer: {
  firstName: string;
  lastName: string;
  origin?: string | null | undefined;
}): Avatar {
  const h = hash(avatarKey(racer.firstName, racer.lastName, racer.origin ?? ""));
  const hue = h % 360;
  const saturation = 0.45 + ((h >>> 9) % 4) * 0.1; // 45-75 %
  const dark = ((h >>> 11) & 1) === 0;
  let bgLight = dark ? 0.3 + ((h >>> 12) % 3) * 0.04 : 0.82 + ((h >>> 12) % 3) * 0.04;
  const fg = hslToRgb(hue, dark ? 0.3 : 0.6, dark ? 0.97 : 0.16);
  const foreground = hex(fg);
  let background = hex(hslToRgb(hue, saturation, bgLight));
  // Darken (or lighten) the background until the initials read well; ends within a few steps.
  while (
    contrastRatio(background, foreground) < AVATAR_MIN_CONTRAST &&
    bgLight > 0 &&
    bgLight < 1
  ) {
    bgLight = Math.min(1, Math.max(0, dark ? bgLight - 0.02 : bgLight + 0.02));
    background = hex(hslToRgb(hue, saturation, bgLight));
  }
  return { initials: avatarInitials(racer.firstName, racer.lastName), background, foreground };
}
