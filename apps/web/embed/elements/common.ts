/** API-state helpers shared by the embeddable widgets, and their attribute readers. */
import { GameApiError } from "@game/widgets/client";
import { useEvents } from "@game/widgets/hooks";
import type { EmbedContext } from "../runtime";
import { intOf, shownEvent } from "./attributes";

export * from "./attributes";

/** What a reader sees when the game cannot be reached (network down). */
export function errorMessage(error: Error | undefined): string | undefined {
  if (!error) return undefined;
  if (error instanceof GameApiError && error.code === "team_private") {
    return "This team stays private until the event locks.";
  }
  if (error instanceof GameApiError && error.status > 0) return error.message;
  return "Could not load Gravity Fantasy data. Please try again later.";
}

/** The event in the `event` attribute, else the open event (else the latest one). */
export function useEventId(attr: string | null | undefined, competition?: string) {
  const explicit = intOf(attr);
  // Without an event: the open round (else the latest) of the `competition` attribute's
  // competition, or of any. Without a fetch (an explicit event) nothing loads or fails.
  const events = useEvents({ enabled: !explicit, competition });
  return { ...events, id: explicit ?? shownEvent(events.data?.data ?? []) };
}

/**
 * A racer's page on the game's site (the origin the script came from). The elements open it in
 * a new tab (`newTabLink`): the reader keeps the partner's page.
 */
export function racerPage(ctx: EmbedContext) {
  return (r: { id: number }) => `${ctx.base}/racers/${r.id}`;
}
