/** Site-wide facts shown in the header, the footer and the legal pages. */

export const SITE_NAME = "Gravity Fantasy";

/** The one contact address, on every page (footer) and in the legal pages. */
export const CONTACT_EMAIL = "hello@gravityfantasy.example";

/** Header navigation, in the spec's order (Login or Logout comes after these). */
export const NAV_LINKS = [
  { to: "/", label: "Home", end: true },
  { to: "/view-racers", label: "View Racers" },
  // The event list is a section of the home page.
  { to: "/#events", label: "View Events", plain: true },
  { to: "/players-ranking", label: "Player Ranking" },
  { to: "/leagues-ranking", label: "Leagues Ranking" },
  { to: "/about", label: "About" },
] as const satisfies readonly { to: string; label: string; end?: boolean; plain?: boolean }[];

/**
 * Where the competitions are listed (live and upcoming ones with their next round, then the
 * finished ones): a section of the home page; each has its own page (`/competitions/<slug>`).
 */
export const COMPETITIONS_LINK = { to: "/#competitions", label: "All competitions" } as const;

/** Date of the current Terms of Service and Privacy Policy, as the pages print it. */
export const LEGAL_UPDATED = "01/01/25";
