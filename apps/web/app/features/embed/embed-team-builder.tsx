/**
 * The team builder inside a partner's iframe. The reader signs in through a popup on our origin
 * (the iframe gets no cookie), the popup hands a single-use token back, and the iframe trades it
 * for a session it keeps in memory only. Building uses the same widgets and rules as
 * `/team-setup`; saving goes through the same server service.
 */
import type { Category } from "@game/core/categories";
import { CAPTAIN_RULE, type CompetitionRules, teamLimit } from "@game/core/rules";
import type { TeamRacerView } from "@game/db";
import { newTabLink, RacerTable, RequirementChecklist, TeamGrid } from "@game/widgets";
import { useFetcher } from "@remix-run/react";
import {
  type Dispatch,
  type RefObject,
  type SetStateAction,
  useEffect,
  useRef,
  useState,
} from "react";
import { addRiderAction } from "~/features/team/add-rider-action";
import { SaveOutcome } from "~/features/team/save-outcome";
import { SaveTeamButton } from "~/features/team/save-team-button";
import { CaptainMark, CaptainToggle } from "~/features/team/team-marks";
import { type TeamDraft, useTeamDraft } from "~/features/team/use-team-draft";
import { type FrameMessage, parseAuthMessage, parseFrameMessage } from "../../../embed/messages";
import type { EmbedActionResult, EmbedSignedIn } from "./team-setup-form";

export interface EmbedTeamBuilderProps {
  partner: { name: string; key: string; origins: string[] };
  /** The partner page framing us: the only target of our messages. */
  parentOrigin: string | null;
  event: { id: number; name: string; status: string; lockAt: string; rules?: CompetitionRules };
  /** Null when the team can be changed; otherwise why not. */
  lockedReason: string | null;
  racers: TeamRacerView[];
  /** The budget of a player without a team (the competition's); a saved team has its own. */
  budget: number;
  theme: "light" | "dark" | "auto" | null;
}

type Alert = { ok: boolean; message: string; reasons: string[] };

/** Racer names open the racer's page in a new tab: the reader keeps the partner's page. */
const racerLinks = { racerHref: (r: { id: number }) => `/racers/${r.id}`, renderLink: newTabLink };

/** Posts a (checked) message to the partner page, and only to it. */
function tellParent(parentOrigin: string | null, message: FrameMessage) {
  if (!parentOrigin || window.parent === window) return;
  const checked = parseFrameMessage(message);
  if (!checked) throw new Error(`Not a message for the partner page: ${JSON.stringify(message)}`);
  window.parent.postMessage(checked, parentOrigin);
}

/** Reports the content's height to the partner page whenever it changes: no inner scrollbar. */
function useReportHeight(parentOrigin: string | null) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !parentOrigin || window.parent === window) return;
    let last = -1;
    const report = () => {
      const height = Math.ceil(el.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      tellParent(parentOrigin, { type: "gf:resize", height });
    };
    const observer = new ResizeObserver(report);
    observer.observe(el);
    report();
    return () => observer.disconnect();
  }, [parentOrigin]);
  return ref;
}

export function EmbedTeamBuilder(props: EmbedTeamBuilderProps) {
  const { partner, parentOrigin, event, lockedReason, racers, budget, theme } = props;
  const fetcher = useFetcher<EmbedActionResult>();
  const rootRef = useReportHeight(parentOrigin);
  const [player, setPlayer] = useState<EmbedSignedIn | null>(null);
  const d = useTeamDraft({
    eventId: event.id,
    racers,
    // A racer of the saved team counts at their selling price (decision 0141).
    budget: player?.budget ?? budget,
    initial: [],
    held: player?.held,
    blocked: lockedReason ? "Teams are locked" : player ? null : "Sign in to pick riders",
    rules: event.rules,
  });
  const [alert, setAlert] = useState<Alert | null>(null);
  const teamHeading = useRef<HTMLHeadingElement>(null);
  const { signIn, popupBlocked } = useSignInPopup(partner.key, parentOrigin, (token) =>
    fetcher.submit({ intent: "exchange", token }, { method: "post" }),
  );
  useAnswers(fetcher.data, {
    d,
    setPlayer,
    setAlert,
    teamHeading,
    parentOrigin,
    eventId: event.id,
  });

  const editable = lockedReason === null && player !== null;
  const busy = fetcher.state !== "idle";

  const add = (racer: TeamRacerView) => {
    if (d.add(racer)) setAlert(null);
  };
  const remove = (racer: { id: number }) => {
    d.remove(racer);
    setAlert(null);
    teamHeading.current?.focus();
  };
  const save = () => {
    if (!player || !d.allMet || busy) return;
    const form = new FormData();
    form.set("intent", "save");
    form.set("session", player.session);
    for (const id of d.draft) form.append("racer", String(id));
    if (d.captain !== null) form.set("captain", String(d.captain));
    fetcher.submit(form, { method: "post" });
  };
  const signOut = () => {
    if (player) fetcher.submit({ intent: "signout", session: player.session }, { method: "post" });
  };

  return (
    <div ref={rootRef} className="gf-root embed-page" data-theme={theme ?? undefined}>
      <EmbedHeader
        partnerName={partner.name}
        eventName={event.name}
        username={player?.username ?? null}
        onSignOut={signOut}
      />

      {lockedReason ? (
        <p className="embed-notice" role="status">
          {lockedReason}
        </p>
      ) : null}

      {!player && !lockedReason ? (
        <SignInPanel
          partnerName={partner.name}
          onSignIn={signIn}
          busy={busy}
          popupBlocked={popupBlocked}
        />
      ) : null}

      <div className="embed-grid">
        <EmbedTeamSection
          d={d}
          rules={event.rules}
          signedIn={player !== null}
          editable={editable}
          hasTeam={(player?.team.length ?? 0) > 0}
          alert={alert}
          busy={busy}
          headingRef={teamHeading}
          onRemove={remove}
          onSave={save}
        />
        <EmbedRacersSection d={d} racers={racers} onAdd={add} />
      </div>
    </div>
  );
}

/** What the iframe's action answered: a session, a saved team, or signed out. */
function useAnswers(
  result: EmbedActionResult | undefined,
  to: {
    d: TeamDraft;
    setPlayer: Dispatch<SetStateAction<EmbedSignedIn | null>>;
    setAlert: (alert: Alert | null) => void;
    teamHeading: RefObject<HTMLHeadingElement>;
    parentOrigin: string | null;
    eventId: number;
  },
) {
  const { setDraft, setCaptain, setAnnouncement } = to.d;
  const { setPlayer, setAlert, teamHeading, parentOrigin, eventId } = to;
  useEffect(() => {
    if (!result) return;
    if (!result.ok) {
      if (result.signedOut) setPlayer(null);
      setAlert({ ok: false, message: result.message, reasons: result.reasons });
      return;
    }
    if (result.intent === "exchange") {
      setPlayer(result.player);
      setDraft(result.player.team);
      setCaptain(result.player.captain);
      setAlert(null);
      setAnnouncement(`Signed in as ${result.player.username}.`);
      teamHeading.current?.focus();
    } else if (result.intent === "save") {
      setPlayer((p) =>
        p
          ? {
              ...p,
              team: result.team,
              held: result.held,
              budget: result.budget,
              captain: result.captain,
            }
          : p,
      );
      setCaptain(result.captain);
      setDraft(result.team);
      setAlert({ ok: true, message: result.message, reasons: [] });
      tellParent(parentOrigin, { type: "gf:saved", eventId });
    } else {
      setPlayer(null);
      setDraft([]);
      setAlert(null);
      setAnnouncement("Signed out.");
    }
  }, [
    result,
    parentOrigin,
    eventId,
    setDraft,
    setCaptain,
    setAnnouncement,
    setPlayer,
    setAlert,
    teamHeading,
  ]);
}

/** The reader's team: grid, captain, checklist, the answer and Save. */
function EmbedTeamSection(props: {
  d: TeamDraft;
  rules?: CompetitionRules;
  signedIn: boolean;
  editable: boolean;
  hasTeam: boolean;
  alert: Alert | null;
  busy: boolean;
  headingRef: RefObject<HTMLHeadingElement>;
  onRemove: (racer: { id: number }) => void;
  onSave: () => void;
}) {
  const { d, rules, editable } = props;
  const { captain, bench } = d;
  const aside = (racer: TeamRacerView) =>
    racer.id === bench ? null : editable ? (
      <CaptainToggle
        racer={racer}
        on={captain === racer.id}
        className="gf-button gf-button--secondary captain-toggle"
        onToggle={() => d.toggleCaptain(racer)}
      />
    ) : captain === racer.id ? (
      <CaptainMark />
    ) : null;
  return (
    <section className="embed-team" aria-labelledby="embed-team-heading">
      <h2 id="embed-team-heading" ref={props.headingRef} tabIndex={-1}>
        {props.signedIn ? "Your team" : "Team"}
      </h2>
      <TeamGrid
        racers={d.team}
        budget={d.worth}
        // Where the rules have a bench (decision 0169), the rider after the starters sits on it.
        slots={rules ? teamLimit(rules) : undefined}
        renderMeta={(racer) =>
          racer.id === bench ? `Bench · ${d.slotMeta(racer)}` : d.slotMeta(racer)
        }
        readOnly={!editable}
        onRemove={editable ? (racer) => props.onRemove(racer) : undefined}
        emptySlotLabel={props.signedIn ? "Empty slot" : "Sign in to pick"}
        renderAside={rules?.captain ? aside : undefined}
        {...racerLinks}
      />
      {rules?.captain && editable ? (
        <p className="embed-hint">
          {captain === null
            ? `${CAPTAIN_RULE} Press C beside a rider to name them.`
            : "Your captain's points count double."}
        </p>
      ) : null}
      <RequirementChecklist requirements={d.requirements} />
      <div className="embed-result" role="alert">
        <SaveOutcome outcome={props.alert} block="embed-alert" />
      </div>
      {editable ? (
        <SaveTeamButton
          onClick={props.onSave}
          hasTeam={props.hasTeam}
          allMet={d.allMet}
          busy={props.busy}
          hintId="embed-save-hint"
          buttonClass="gf-button gf-button--primary embed-save"
          hintClass="embed-hint"
        />
      ) : null}
      <p className="gf-sr-only" aria-live="polite">
        {d.announcement}
      </p>
    </section>
  );
}

/** The riders to pick from, by category; a rider's button adds them at their price. */
function EmbedRacersSection(props: {
  d: TeamDraft;
  racers: TeamRacerView[];
  onAdd: (racer: TeamRacerView) => void;
}) {
  const { d } = props;
  const [category, setCategory] = useState<Category>("Pro Men");
  return (
    <section className="embed-racers" aria-labelledby="embed-racers-heading">
      <h2 id="embed-racers-heading">Riders</h2>
      <RacerTable
        racers={props.racers}
        category={category}
        onCategoryChange={(next) => setCategory(next)}
        {...racerLinks}
        // The add button shows the price: partner columns are narrow, no need to say it twice.
        hideColumns={["price"]}
        action={addRiderAction(d, props.onAdd)}
      />
    </section>
  );
}

/**
 * The sign-in popup on our own origin, and its answer: a single-use token, taken only from the
 * window we opened, on our origin, well formed.
 */
function useSignInPopup(
  partnerKey: string,
  parentOrigin: string | null,
  onToken: (token: string) => void,
) {
  const [popupBlocked, setPopupBlocked] = useState(false);
  const popup = useRef<Window | null>(null);
  // The latest callback, read when the popup answers (the listener is added once).
  const tokenTo = useRef(onToken);
  useEffect(() => {
    tokenTo.current = onToken;
  });
  useEffect(() => {
    const onMessage = (message: MessageEvent) => {
      if (message.origin !== window.location.origin) return;
      if (!popup.current || message.source !== popup.current) return;
      const parsed = parseAuthMessage(message.data);
      if (!parsed) return;
      popup.current = null;
      tokenTo.current(parsed.token);
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);
  const signIn = () => {
    const params = new URLSearchParams({ partner: partnerKey });
    if (parentOrigin) params.set("origin", parentOrigin);
    const opened = window.open(
      `/embed/auth?${params}`,
      "gf-embed-auth",
      "popup,width=480,height=680",
    );
    popup.current = opened;
    setPopupBlocked(!opened);
    opened?.focus();
  };
  return { signIn, popupBlocked };
}

/** The round, whose game it is on the partner's page, and the signed-in reader. */
function EmbedHeader(props: {
  partnerName: string;
  eventName: string;
  username: string | null;
  onSignOut: () => void;
}) {
  return (
    <header className="embed-header">
      <div>
        <p className="embed-kicker">Gravity Fantasy on {props.partnerName}</p>
        <h1 className="embed-title">{props.eventName}</h1>
      </div>
      {props.username !== null ? (
        <div className="embed-account">
          <span>
            Signed in as <strong>{props.username}</strong>
          </span>
          <button
            type="button"
            className="gf-button gf-button--secondary"
            onClick={props.onSignOut}
          >
            Sign out
          </button>
        </div>
      ) : null}
    </header>
  );
}

/** Why and how to sign in (in a popup: the partner never sees the reader's credentials). */
function SignInPanel(props: {
  partnerName: string;
  onSignIn: () => void;
  busy: boolean;
  popupBlocked: boolean;
}) {
  return (
    <section className="embed-signin" aria-labelledby="embed-signin-heading">
      <h2 id="embed-signin-heading">Pick six riders, beat your friends</h2>
      <p>
        Sign in with your Gravity Fantasy account (or create one, it is free) in a small window.{" "}
        {props.partnerName} never sees your e-mail or password.
      </p>
      <button
        type="button"
        className="gf-button gf-button--primary"
        onClick={props.onSignIn}
        disabled={props.busy}
      >
        Sign in to build your team
      </button>
      {props.popupBlocked ? (
        <p className="embed-error" role="alert">
          Your browser blocked the sign-in window. Allow pop-ups for this page, then try again.
        </p>
      ) : null}
    </section>
  );
}
