/**
 * Live scores on race day (a subpath of its own, so a page without a ranking does not load it).
 */
import { useEffect, useRef } from "react";
import { useGameClient } from "./hooks.js";

/** The longest random wait before a widget reloads after a live update (spreads the load). */
export const LIVE_JITTER_MS = 2000;

/**
 * Follows a round's live scores on race day (`GET /api/v1/events/:id/live`, Server-Sent Events)
 * and calls `onChange` (e.g. a ranking's `reload`) after each change of its points or ranks,
 * following a random wait of up to two seconds. Stops when the round is not live (before its
 * lock, or once its results are final). Nothing without an event, without `EventSource`, or
 * during a server render.
 */
export function useLiveScores(
  eventId: number | string | null | undefined,
  onChange: () => void,
): void {
  const client = useGameClient();
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    if (eventId == null || eventId === "" || typeof EventSource === "undefined") return;
    const source = new EventSource(`${client.baseUrl}/api/v1/events/${eventId}/live`);
    let version: string | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    source.addEventListener("scores", (e) => {
      const state = JSON.parse((e as MessageEvent<string>).data) as {
        version: string;
        live: boolean;
      };
      if (!state.live) source.close();
      // The first event is the state the widget's data already shows (or is loading).
      if (version !== null && state.version !== version) {
        clearTimeout(timer);
        timer = setTimeout(() => latest.current(), Math.random() * LIVE_JITTER_MS);
      }
      version = state.version;
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [client.baseUrl, eventId]);
}
