/** What the leagues panel receives from the server (plain JSON: dates as ISO strings). */
export interface LeagueCardMember {
  userId: number;
  username: string;
  score: number;
  status: "accepted";
  isOwner: boolean;
  isYou: boolean;
}

export interface LeagueCardData {
  id: number;
  name: string;
  totalPoints: number;
  ranking: number | null;
  role: "owner" | "member" | "invited";
  members: LeagueCardMember[];
  /** Open invitations: addresses in full for the owner, masked for other members (0151). */
  invited: { id: number; email: string; status: "pending" }[];
  /** Absolute share link; null for an invited player. */
  shareLink: string | null;
  invitedBy: string | null;
  /** Who would own the league if the player left now (owner only); null: it would be deleted. */
  successor: string | null;
  /** The competition the league plays (docs/decisions/0158). */
  competition: { slug: string; name: string };
  /** For the owner of a league of an earlier competition: the one it can be renewed for. */
  renewInto: { slug: string; name: string } | null;
}

export interface LeaguesPanelData {
  signedIn: boolean;
  /** The create button stays disabled until the player has a team for this event. */
  hasTeam: boolean;
  leagues: LeagueCardData[];
  /** Listing failed (already logged): the panel says so and the rest of the page works. */
  loadFailed: boolean;
  /** The login link for visitors, coming back to this page. */
  loginHref: string;
  /**
   * The signed-in player's address while it waits for its confirmation (the panel says what
   * waits for it and offers a new link); null once confirmed, and for visitors (decision 0151).
   */
  unconfirmedEmail: string | null;
  /** This page, to come back to from the confirmation. */
  here: string;
}
