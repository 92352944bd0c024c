/** The four racer categories, in the order the tabs show them. */
export const CATEGORIES = ["Pro Men", "Pro Women", "17-18 Men", "17-18 Women"] as const;
export type Category = (typeof CATEGORIES)[number];

/** URL-safe names used by routes and the public API (`?category=pro-women`). */
export const CATEGORY_SLUGS = {
  "Pro Men": "pro-men",
  "Pro Women": "pro-women",
  "17-18 Men": "junior-men",
  "17-18 Women": "junior-women",
} as const satisfies Record<Category, string>;
export type CategorySlug = (typeof CATEGORY_SLUGS)[Category];

const FEMALE: ReadonlySet<Category> = new Set(["Pro Women", "17-18 Women"]);
const JUNIOR: ReadonlySet<Category> = new Set(["17-18 Men", "17-18 Women"]);

export function isCategory(value: unknown): value is Category {
  return typeof value === "string" && (CATEGORIES as readonly string[]).includes(value);
}

export function isFemale(category: Category): boolean {
  return FEMALE.has(category);
}

export function isJunior(category: Category): boolean {
  return JUNIOR.has(category);
}

export function categoryToSlug(category: Category): CategorySlug {
  return CATEGORY_SLUGS[category];
}

export function categoryFromSlug(slug: string): Category | undefined {
  return CATEGORIES.find((c) => CATEGORY_SLUGS[c] === slug);
}

/**
 * Reads a category written loosely (CSV files from partners say "pro women", "Junior Men",
 * "17-18 women", "pro-women"): returns the canonical name or undefined.
 */
export function normalizeCategory(input: string): Category | undefined {
  const key = input
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, " ");
  if (!key) return undefined;
  for (const c of CATEGORIES) {
    if (c.toLowerCase() === key || CATEGORY_SLUGS[c] === key.replace(/ /g, "-")) return c;
  }
  const aliases: Record<string, Category> = {
    "elite men": "Pro Men",
    "elite women": "Pro Women",
    "junior men": "17-18 Men",
    "junior women": "17-18 Women",
    "men junior": "17-18 Men",
    "women junior": "17-18 Women",
    // Timing exports often put the gender first.
    "men elite": "Pro Men",
    "women elite": "Pro Women",
  };
  return aliases[key];
}
