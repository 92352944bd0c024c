/** Site-wide facts shown in the header, the footer and the legal pages. */
import { HALL_OF_FAME } from "~/features/rankings/ranking-links";

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

/** The podiums of the finished competitions: in the footer, beside the rankings. */
export const HALL_OF_FAME_LINK = { to: HALL_OF_FAME, label: "Hall of Fame" } as const;

/**
 * The footer's Play links: the header's, with the hall of fame after the rankings (the header
 * stays on one line: docs/decisions/0115-header-on-one-line.md).
 */
export const FOOTER_LINKS: readonly { to: string; label: string }[] = NAV_LINKS.flatMap(
  (link): { to: string; label: string }[] =>
    link.to === "/leagues-ranking" ? [link, HALL_OF_FAME_LINK] : [link],
);

/**
 * Where the competitions are listed (live and upcoming ones with their next round, then the
 * finished ones): a section of the home page; each has its own page (`/competitions/<slug>`).
 */
export const COMPETITIONS_LINK = { to: "/#competitions", label: "All competitions" } as const;

/** Date of the current Terms of Service and Privacy Policy, as the pages print it. */
export const LEGAL_UPDATED = "01/01/25";
