/**
 * The player's mini leagues on the event home: each league with its members and invitations, the
 * actions Invite Member, Accept, Dismiss, Leave, Delete and Remove (a member, owner only), and
 * the Create a League modal (its button disabled until the player has a team). Data comes from
 * `loadLeaguesPanel`.
 */
import { useLocation, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ConfirmEmailBanner } from "~/features/account/confirm-email-banner";
import "./leagues.css";
import { LeagueCard } from "./league-card";
import { CreateLeagueDialog, createDialogId } from "./league-dialogs";
import { DialogButton } from "./modal";
import {
  CONFIRM_PARAM,
  DIALOG_PARAM,
  LEAGUE_PARAM,
  MEMBER_PARAM,
  NOTICE_PARAM,
  noticeFor,
} from "./notices";
import type { LeaguesPanelData } from "./types";

/**
 * The answer to the last league action, in a polite live region: it never blocks the page and can
 * be dismissed. The code leaves the address bar so a reload does not repeat it.
 */
function NoticeBar() {
  const [params] = useSearchParams();
  const { key } = useLocation();
  const notice = noticeFor(params.get(NOTICE_PARAM));
  const [hiddenFor, setHiddenFor] = useState<string | null>(null);

  useEffect(() => {
    if (!notice) return;
    const url = new URL(window.location.href);
    url.searchParams.delete(NOTICE_PARAM);
    window.history.replaceState(window.history.state, "", url);
  }, [notice]);

  const shown = notice && hiddenFor !== key ? notice : null;
  return (
    <div role="status" aria-live="polite" className="lg-notice-region">
      {shown && (
        <p className={`lg-notice lg-notice--${shown.tone}`}>
          <span>{shown.text}</span>
          <button
            type="button"
            className="lg-icon-button"
            aria-label="Dismiss notice"
            onClick={() => setHiddenFor(key)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </p>
      )}
    </div>
  );
}

export function LeaguesPanel({
  data,
  game,
  className,
}: {
  data: LeaguesPanelData;
  /** The event of the page: its team is what entitles the player to create a league. */
  game: number;
  className?: string;
}) {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const dialog = params.get(DIALOG_PARAM);
  const confirm = params.get(CONFIRM_PARAM);
  const target = Number(params.get(LEAGUE_PARAM));
  const member = Number(params.get(MEMBER_PARAM));
  const noTeamHint = "lg-no-team-hint";

  return (
    <section
      id="leagues"
      className={className ? `lg-panel ${className}` : "lg-panel"}
      aria-labelledby="leagues-heading"
    >
      <div className="lg-panel__head">
        <h2 id="leagues-heading">Mini Leagues</h2>
        {data.signedIn && (
          <form method="get" action={`${pathname}#${createDialogId}`} className="lg-inline">
            <input type="hidden" name={DIALOG_PARAM} value="create" />
            <DialogButton
              dialogId={createDialogId}
              className="lg-button"
              disabled={!data.hasTeam}
              describedBy={data.hasTeam ? undefined : noTeamHint}
            >
              Create a League
            </DialogButton>
          </form>
        )}
      </div>
      <NoticeBar />
      {data.unconfirmedEmail && (
        <ConfirmEmailBanner email={data.unconfirmedEmail} back={`${data.here}#leagues`}>
          Until you open it you cannot accept invitations, join leagues by their link or invite
          friends.
        </ConfirmEmailBanner>
      )}

      {!data.signedIn && (
        <p className="lg-empty">
          <a href={data.loginHref}>Log in</a> to create mini leagues and battle your friends.
        </p>
      )}
      {data.signedIn && !data.hasTeam && (
        <p id={noTeamHint} className="lg-muted">
          Save your team for this event first: then you can create a league.
        </p>
      )}
      {data.loadFailed && (
        <p className="lg-notice lg-notice--error">
          Your leagues could not be loaded just now. Reload the page to try again.
        </p>
      )}
      {data.signedIn && !data.loadFailed && data.leagues.length === 0 && (
        <p className="lg-empty">
          You are not in a mini league yet. Create one and invite your friends, or open a friend's
          invite link to join theirs.
        </p>
      )}

      {data.leagues.length > 0 && (
        <div className="lg-list">
          {data.leagues.map((league) => (
            <LeagueCard
              key={league.id}
              league={league}
              dialogs={{
                invite: dialog === "invite" && target === league.id,
                leave: confirm === "leave" && target === league.id,
                delete: confirm === "delete" && target === league.id,
                remove: confirm === "remove" && target === league.id && member > 0 ? member : null,
              }}
            />
          ))}
        </div>
      )}

      {data.signedIn && data.hasTeam && (
        <CreateLeagueDialog game={game} initiallyOpen={dialog === "create"} />
      )}
    </section>
  );
}
