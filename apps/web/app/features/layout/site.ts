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

/** Our sister games (not launched yet): the footer mentions them, the About page explains. */
export const OTHER_GAMES = [
  { name: "Gravity Fantasy Enduro", note: "coming soon" },
  { name: "Gravity Fantasy Cross-Country", note: "coming soon" },
] as const;

/** Date of the current Terms of Service and Privacy Policy, as the pages print it. */
export const LEGAL_UPDATED = "01/01/25";
