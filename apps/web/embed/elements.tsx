/**
 * The embeddable widgets: each reads its attributes, fetches from the public API of the game's
 * origin and renders the `@game/widgets` component.
 */
import { CATEGORY_SLUGS, type Category, GameApiError } from "@game/widgets/client";
import {
  type AsyncResult,
  useEvents,
  useLeagueRankings,
  usePlayerRankings,
  useRacers,
  useTeam,
} from "@game/widgets/hooks";
import { LeagueRankings } from "@game/widgets/league-rankings";
import { PlayerRankings } from "@game/widgets/player-rankings";
import { RacerTable } from "@game/widgets/racer-table";
import { TeamGrid } from "@game/widgets/team-grid";
import { type ReactElement, useEffect, useRef, useState } from "react";
import type { Attributes, EmbedContext, WidgetProps } from "./define";
import { parseFrameMessage } from "./messages";

type Theme = "light" | "dark" | "auto";

const BUDGET = 1_000_000;

function themeOf(attrs: Attributes): Theme | undefined {
  const t = attrs.theme;
  return t === "light" || t === "dark" || t === "auto" ? t : undefined;
}

/** A positive integer attribute, or undefined. */
function intOf(value: string | null | undefined): number | undefined {
  return value && /^\d{1,9}$/.test(value.trim()) && Number(value) > 0 ? Number(value) : undefined;
}

/** "pro-women" or "Pro Women" -> "Pro Women". */
function categoryOf(value: string | null | undefined): Category | undefined {
  if (!value) return undefined;
  const v = value.trim().toLowerCase();
  return (Object.keys(CATEGORY_SLUGS) as Category[]).find(
    (c) => c.toLowerCase() === v || CATEGORY_SLUGS[c] === v,
  );
}

/** What a reader sees when the game cannot be reached (network down, or this site not allowed). */
function errorMessage(error: Error | undefined): string | undefined {
  if (!error) return undefined;
  if (error instanceof GameApiError && error.code === "team_private") {
    return "This team stays private until the event locks, 12 hours before the start.";
  }
  if (error instanceof GameApiError && error.status > 0) return error.message;
  return "Could not load Gravity Fantasy data. Please try again later.";
}

/** The event in the `event` attribute, else the open event (else the latest one). */
function useEventId(ctx: EmbedContext, attr: string | null | undefined) {
  const explicit = intOf(attr);
  const events = useEvents(explicit ? null : ctx.client);
  if (explicit) return { id: explicit, loading: false, error: undefined, reload: events.reload };
  const list = events.data?.data ?? [];
  const open = list.find((e) => e.status === "open");
  const latest = [...list].sort((a, b) => String(b.startsAt).localeCompare(String(a.startsAt)))[0];
  return {
    id: (open ?? latest)?.id,
    loading: events.loading,
    error: events.error,
    reload: events.reload,
  };
}

/** The page shown: the `page` attribute (followed when it changes), then the reader's clicks. */
function usePageAttribute(attr: string | null | undefined) {
  const [page, setPage] = useState(intOf(attr) ?? 1);
  useEffect(() => setPage(intOf(attr) ?? 1), [attr]);
  return [page, setPage] as const;
}

export function GfRacerTable({ ctx, attrs }: WidgetProps): ReactElement {
  const event = useEventId(ctx, attrs.event);
  const only = attrs["hide-tabs"] != null ? categoryOf(attrs.category) : undefined;
  const racers = useRacers(ctx.client, event.id, only);
  const [category, setCategory] = useState<Category>(categoryOf(attrs.category) ?? "Pro Men");
  useEffect(() => {
    const next = categoryOf(attrs.category);
    if (next) setCategory(next);
  }, [attrs.category]);
  const error = event.error ?? racers.error;
  return (
    <RacerTable
      racers={racers.data?.data ?? []}
      category={category}
      onCategoryChange={(next) => setCategory(next)}
      showTabs={attrs["hide-tabs"] == null}
      loading={event.loading || racers.loading}
      error={errorMessage(error)}
      onRetry={event.error ? event.reload : racers.reload}
      theme={themeOf(attrs)}
      imageBase={ctx.base}
    />
  );
}

/** The props both ranking tables take from a page of the API and the page attribute. */
function pagedProps<T>(
  result: AsyncResult<{ data: T[]; page: number; pageCount: number }>,
  page: number,
  setPage: (page: number) => void,
  attrs: Attributes,
) {
  const data = result.data;
  return {
    rows: data?.data ?? [],
    page: data?.page ?? page,
    pageCount: data?.pageCount ?? 0,
    onPageChange: setPage,
    loading: result.loading && !data,
    error: errorMessage(result.error),
    onRetry: result.reload,
    theme: themeOf(attrs),
  };
}

export function GfPlayerRankings({ ctx, attrs }: WidgetProps): ReactElement {
  const [page, setPage] = usePageAttribute(attrs.page);
  const result = usePlayerRankings(ctx.client, { event: intOf(attrs.event), page });
  return (
    <PlayerRankings
      {...pagedProps(result, page, setPage, attrs)}
      emptyMessage="No players ranked yet: rankings appear after the first race results."
    />
  );
}

export function GfLeagueRankings({ ctx, attrs }: WidgetProps): ReactElement {
  const [page, setPage] = usePageAttribute(attrs.page);
  const result = useLeagueRankings(ctx.client, { page });
  return <LeagueRankings {...pagedProps(result, page, setPage, attrs)} />;
}

export function GfTeamGrid({ ctx, attrs }: WidgetProps): ReactElement {
  const username = attrs.username?.trim() || null;
  const result = useTeam(ctx.client, username, intOf(attrs.event));
  const team = result.data?.data;
  return (
    <TeamGrid
      racers={team?.racers ?? []}
      readOnly
      label={team ? `${team.username}'s team` : "Team"}
      budget={team ? BUDGET : undefined}
      loading={result.loading}
      error={username ? errorMessage(result.error) : "Set the username attribute to show a team."}
      onRetry={result.reload}
      theme={themeOf(attrs)}
      imageBase={ctx.base}
    />
  );
}

/**
 * The team builder for readers: an iframe on the game's origin (it needs the reader's sign-in,
 * which a script on the partner's page must never see), grown to its content's height.
 */
export function GfTeamBuilder({ ctx, attrs, host }: WidgetProps): ReactElement {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(640);
  const origin = new URL(ctx.base).origin;

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      // Only our frame, from our origin, with a well-formed message.
      if (event.origin !== origin || event.source !== frame.current?.contentWindow) return;
      const message = parseFrameMessage(event.data);
      if (!message) return;
      if (message.type === "gf:resize") setHeight(Math.ceil(message.height));
      else {
        host.dispatchEvent(
          new CustomEvent("gf-team-saved", {
            detail: { eventId: message.eventId },
            bubbles: true,
            composed: true,
          }),
        );
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [host, origin]);

  const partner = attrs.partner?.trim();
  if (!partner) {
    return (
      <div className="gf-root" data-theme={themeOf(attrs)}>
        <p className="gf-status gf-status--error" role="alert">
          Set the partner attribute (your publishable key) to show the team builder.
        </p>
      </div>
    );
  }
  const params = new URLSearchParams({ partner, origin: location.origin });
  const event = intOf(attrs.event);
  if (event) params.set("event", String(event));
  const theme = themeOf(attrs);
  if (theme) params.set("theme", theme);
  return (
    <iframe
      ref={frame}
      src={`${ctx.base}/embed/team-setup?${params}`}
      title="Gravity Fantasy team builder"
      style={{ display: "block", width: "100%", height: `${height}px`, border: 0 }}
    />
  );
}
