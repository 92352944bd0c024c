/** One league on the event home: standings, invitations and the actions the player may take. */
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { flushSync } from "react-dom";
import { LEAGUE_ACTION } from "./forms";
import { ConfirmDialog, confirmDialogId, InviteDialog, inviteDialogId } from "./league-dialogs";
import { MembersTable } from "./members-table";
import { DialogButton, useHydrated } from "./modal";
import { DIALOG_PARAM, LEAGUE_PARAM } from "./notices";
import type { LeagueCardData, LeagueCardMember } from "./types";

const points = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

const ROLE_LABEL = { owner: "Owner", member: "Member", invited: "Invitation" } as const;

export interface CardDialogs {
  invite: boolean;
  leave: boolean;
  delete: boolean;
  /** The user id of the member whose removal the server asked to confirm (no JavaScript). */
  remove: number | null;
}

/** A one-button POST to the league action, busy while its own post is on the way. */
function ActionButton({
  intent,
  leagueId,
  children,
  className = "lg-button",
}: {
  intent: string;
  leagueId: number;
  children: string;
  className?: string;
}) {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData?.get("leagueId") === String(leagueId);
  return (
    <Form method="post" action={LEAGUE_ACTION} preventScrollReset className="lg-inline">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="leagueId" value={leagueId} />
      <input type="hidden" name="redirectTo" value={pathname} />
      <button type="submit" className={className} disabled={busy} aria-busy={busy || undefined}>
        {children}
      </button>
    </Form>
  );
}

function ShareLink({ league }: { league: LeagueCardData }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  if (!league.shareLink) return null;
  const inputId = `lg-share-${league.id}`;
  return (
    <div className="lg-share">
      <label htmlFor={inputId}>Invite link</label>
      <div className="lg-share__row">
        <input
          id={inputId}
          type="text"
          readOnly
          value={league.shareLink}
          onFocus={(e) => e.currentTarget.select()}
        />
        {hydrated && (
          <button
            type="button"
            className="lg-button lg-button--ghost"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(league.shareLink!);
                setCopied("yes");
              } catch {
                setCopied("no");
              }
            }}
          >
            Copy
          </button>
        )}
      </div>
      <p className="lg-muted" aria-live="polite">
        {copied === "yes"
          ? "Link copied."
          : copied === "no"
            ? "Could not copy: select the link and copy it yourself."
            : "Anyone with this link can join."}
      </p>
      {league.role === "owner" && (
        <ActionButton intent="reset-code" leagueId={league.id} className="lg-link-button">
          Reset link
        </ActionButton>
      )}
    </div>
  );
}

export function LeagueCard({ league, dialogs }: { league: LeagueCardData; dialogs: CardDialogs }) {
  const { pathname } = useLocation();
  // The member the Remove dialog is about: the one whose button was pressed, else the server's ask.
  const [chosen, setChosen] = useState<number | null>(null);
  const headingId = `league-${league.id}-name`;
  const isMember = league.role !== "invited";
  const canRemove = league.role === "owner" && league.members.some((m) => !m.isOwner);
  const removing = canRemove
    ? league.members.find((m) => !m.isOwner && m.userId === (chosen ?? dialogs.remove))
    : undefined;
  return (
    <article id={`league-${league.id}`} className="lg-card" aria-labelledby={headingId}>
      <header className="lg-card__head">
        {/* Focusable by script: where focus lands when a removed member's row is gone. */}
        <h3 id={headingId} className="lg-card__name" tabIndex={-1}>
          {league.name}
        </h3>
        <span className={`lg-badge lg-badge--${league.role}`}>{ROLE_LABEL[league.role]}</span>
      </header>
      <p className="lg-muted lg-card__competition">{league.competition.name}</p>
      <dl className="lg-stats">
        <div>
          <dt>League score</dt>
          <dd>{points.format(league.totalPoints)}</dd>
        </div>
        <div>
          <dt>Rank</dt>
          <dd>{league.ranking ?? "Unranked"}</dd>
        </div>
      </dl>

      {league.role === "invited" && <InvitationBox league={league} />}

      <MembersTable
        members={league.members}
        withStatus
        action={
          canRemove
            ? (m) =>
                m.isOwner ? null : (
                  <RemoveOpener
                    leagueId={league.id}
                    member={m}
                    redirectTo={pathname}
                    // Synchronously, so the dialog names this member the moment it opens.
                    onChoose={() => flushSync(() => setChosen(m.userId))}
                  />
                )
            : undefined
        }
      />

      {isMember && league.invited.length > 0 && <PendingInvitations league={league} />}

      {isMember && (
        <>
          <div className="lg-actions">
            <form
              method="get"
              action={`${pathname}#${inviteDialogId(league.id)}`}
              className="lg-inline"
            >
              <input type="hidden" name={DIALOG_PARAM} value="invite" />
              <input type="hidden" name={LEAGUE_PARAM} value={league.id} />
              <DialogButton dialogId={inviteDialogId(league.id)} className="lg-button">
                Invite Member
              </DialogButton>
            </form>
            <ConfirmOpener intent="leave" leagueId={league.id} redirectTo={pathname}>
              Leave
            </ConfirmOpener>
            {league.role === "owner" && (
              <ConfirmOpener intent="delete" leagueId={league.id} redirectTo={pathname}>
                Delete
              </ConfirmOpener>
            )}
          </div>
          {league.renewInto && (
            <div className="lg-renew">
              <p className="lg-muted">
                {league.competition.name} is over for this league: renew it for{" "}
                {league.renewInto.name}, with every member (each gets an e-mail). This table stays
                as it finished.
              </p>
              <ActionButton intent="renew" leagueId={league.id}>
                {`Renew for ${league.renewInto.name}`}
              </ActionButton>
            </div>
          )}
          <ShareLink league={league} />
          <InviteDialog league={league} initiallyOpen={dialogs.invite} />
          <MemberDialogs
            league={league}
            dialogs={dialogs}
            removing={removing}
            headingId={headingId}
          />
        </>
      )}
    </article>
  );
}

/** An invitation to this league: who sent it, accept or dismiss. */
function InvitationBox({ league }: { league: LeagueCardData }) {
  return (
    <div className="lg-invitation">
      <p>
        {league.invitedBy ? (
          <>
            <strong>{league.invitedBy}</strong> invited you to this league.
          </>
        ) : (
          "You are invited to this league."
        )}
      </p>
      <div className="lg-actions">
        <ActionButton intent="accept" leagueId={league.id}>
          Accept
        </ActionButton>
        <ActionButton intent="dismiss" leagueId={league.id} className="lg-button lg-button--ghost">
          Dismiss
        </ActionButton>
      </div>
    </div>
  );
}

/** Addresses invited and not yet joined (masked for members, whole for the owner). */
function PendingInvitations({ league }: { league: LeagueCardData }) {
  return (
    <section className="lg-invited" aria-labelledby={`league-${league.id}-invited`}>
      <h4 id={`league-${league.id}-invited`}>Invited</h4>
      {league.role === "owner" ? null : (
        <p className="lg-muted">Only the league's owner sees the full addresses.</p>
      )}
      <ul>
        {league.invited.map((i) => (
          // Masked addresses can look alike (b***@e***.com): keyed by the invitation.
          <li key={i.id}>
            <span className="lg-email">{i.email}</span> <span className="lg-tag">Pending</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The confirmations a member may open: leave, and for the owner delete and remove a member. */
function MemberDialogs(props: {
  league: LeagueCardData;
  dialogs: CardDialogs;
  /** The member the Remove dialog is about. */
  removing: LeagueCardMember | undefined;
  headingId: string;
}) {
  const { league, dialogs, removing, headingId } = props;
  return (
    <>
      <ConfirmDialog intent="leave" league={league} initiallyOpen={dialogs.leave}>
        <p>
          You will leave <strong>{league.name}</strong>.
        </p>
        {league.role === "owner" &&
          (league.successor ? (
            <p>
              You own this league: <strong>{league.successor}</strong>, its longest-standing member,
              will own it after you.
            </p>
          ) : (
            <p>You are its only member, so the league will be deleted.</p>
          ))}
      </ConfirmDialog>
      {league.role === "owner" && (
        <ConfirmDialog intent="delete" league={league} initiallyOpen={dialogs.delete}>
          <p>
            Delete <strong>{league.name}</strong> for all its members? Its standings and open
            invitations go too. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
      {/* Kept while open even when the last other member goes, so it can close properly. */}
      {league.role === "owner" && (
        <ConfirmDialog
          intent="remove"
          league={league}
          initiallyOpen={removing !== undefined && dialogs.remove === removing.userId}
          fields={removing ? { memberId: removing.userId } : undefined}
          fallbackFocus={() => document.getElementById(headingId)}
        >
          {removing ? (
            <>
              <p>
                Remove <strong>{removing.username}</strong> from <strong>{league.name}</strong>?
                Their score no longer counts towards the league's average.
              </p>
              <p>
                We will e-mail them to say so. The invite link will not let them back in: only an
                invitation from you will.
              </p>
            </>
          ) : null}
        </ConfirmDialog>
      )}
    </>
  );
}

/**
 * Leave or Delete: opens its confirmation dialog; without JavaScript the form posts unconfirmed
 * and the page asks.
 */
function ConfirmOpener(props: {
  intent: "leave" | "delete";
  leagueId: number;
  redirectTo: string;
  children: string;
}) {
  return (
    <Form method="post" action={LEAGUE_ACTION} preventScrollReset className="lg-inline">
      <input type="hidden" name="intent" value={props.intent} />
      <input type="hidden" name="leagueId" value={props.leagueId} />
      <input type="hidden" name="redirectTo" value={props.redirectTo} />
      <DialogButton
        dialogId={confirmDialogId(props.intent, props.leagueId)}
        className={`lg-button ${props.intent === "delete" ? "lg-button--danger" : "lg-button--ghost"}`}
      >
        {props.children}
      </DialogButton>
    </Form>
  );
}

/**
 * Remove, on a member's row (owner only): opens the confirmation naming that member; without
 * JavaScript the form posts unconfirmed and the page asks.
 */
function RemoveOpener(props: {
  leagueId: number;
  member: LeagueCardMember;
  redirectTo: string;
  onChoose: () => void;
}) {
  return (
    <Form method="post" action={LEAGUE_ACTION} preventScrollReset className="lg-inline">
      <input type="hidden" name="intent" value="remove" />
      <input type="hidden" name="leagueId" value={props.leagueId} />
      <input type="hidden" name="memberId" value={props.member.userId} />
      <input type="hidden" name="redirectTo" value={props.redirectTo} />
      <DialogButton
        dialogId={confirmDialogId("remove", props.leagueId)}
        className="lg-link-button lg-remove"
        beforeOpen={props.onChoose}
      >
        Remove<span className="visually-hidden"> {props.member.username}</span>
      </DialogButton>
    </Form>
  );
}
