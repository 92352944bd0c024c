/**
 * A page that shows a round's scores moves by itself while the round is live (docs/decisions/0171):
 * it follows the round's event stream and, when the scores change, reloads its loaders after a
 * random wait of up to two seconds (so thousands of viewers do not ask at the same instant).
 * Without JavaScript the page is simply as it was rendered.
 */
import { useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";

/** What a loader tells the page to follow: null when the round cannot move. */
export interface LiveFollow {
  eventId: number;
  /** The scores' version the page was rendered at (core's `liveVersion`). */
  version: string;
}

/** The longest random wait before a page reloads its data after an update. */
export const LIVE_JITTER_MS = 2000;

export function useLiveRound(live: LiveFollow | null) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  // The version the page shows now, and the newest the stream has announced.
  const shown = useRef(live?.version ?? null);
  shown.current = live?.version ?? null;
  const wanted = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const tries = useRef(0);

  // Refs only: the same function for the page's life.
  const schedule = useCallback((delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => revalidate.current(), delay);
  }, []);

  // After each reload: a cache that had not caught up yet leaves the page behind: ask again,
  // a few times, a second apart.
  useEffect(() => {
    const target = wanted.current;
    if (target === null || live === null) return;
    if (live.version === target) {
      tries.current = 0;
      return;
    }
    if (tries.current < 5) {
      tries.current += 1;
      schedule(1000);
    }
  }, [live, schedule]);

  const eventId = live?.eventId ?? null;
  useEffect(() => {
    if (eventId === null || typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/v1/events/${eventId}/live`);
    source.addEventListener("scores", (e) => {
      const state = JSON.parse((e as MessageEvent<string>).data) as {
        version: string;
        live: boolean;
      };
      // Final (or not live at all): the server ends the stream; do not reconnect.
      if (!state.live) source.close();
      if (state.version === shown.current) return;
      wanted.current = state.version;
      tries.current = 0;
      schedule(Math.random() * LIVE_JITTER_MS);
    });
    return () => {
      clearTimeout(timer.current);
      source.close();
    };
  }, [eventId, schedule]);
}
