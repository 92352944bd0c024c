import { useEffect, useState } from "react";

/**
 * A part of a page that most visits never show (a dialog opened by a click, the controls of a
 * competition's rarer rules): the browser fetches its code apart from the page's, when idle or
 * when it is first wanted, so the page's own JavaScript stays small (docs/decisions/0178, 0180).
 * A page can render the part on arrival (it works without JavaScript): the server loads every
 * part before it renders (entry.server), and the browser, before hydrating, those the page shows
 * (entry.client).
 */
export interface DeferredPart<T> {
  /** The part's export, once its code is here. */
  readonly value: T | undefined;
  /** Fetches its code once; a failure (offline) lets the next call try again. */
  load(): Promise<T>;
}

const parts: { shownBy(url: URL): boolean; load(): Promise<unknown> }[] = [];

/**
 * Declares a deferred part: `shownBy` says whether the page renders it on arrival, from its
 * address or from its HTML (`onPage`).
 */
export function deferredPart<T>(
  importer: () => Promise<T>,
  shownBy: (url: URL) => boolean,
): DeferredPart<T> {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  const part: DeferredPart<T> = {
    get value() {
      return value;
    },
    load() {
      loading ??= importer().then(
        (loaded) => (value = loaded),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
  parts.push({ shownBy, load: part.load });
  return part;
}

/**
 * Whether the server's HTML shows the part named `name`: for a part the page's data decides (a
 * competition's rules), whose place in the page carries `data-part="<name>"`. The browser only,
 * before hydrating; the server loads every part.
 */
export function onPage(name: string): boolean {
  return document.querySelector(`[data-part="${name}"]`) !== null;
}

/** Every part (the server), or those `url` renders on arrival (the browser, before hydrating). */
export async function loadParts(url?: URL): Promise<void> {
  await Promise.all(parts.filter((p) => !url || p.shownBy(url)).map((p) => p.load()));
}

/** Runs `task` when the browser is idle; answers how to cancel it. */
function whenIdle(task: () => void): () => void {
  if ("requestIdleCallback" in window) {
    const id = window.requestIdleCallback(task, { timeout: 5000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(task, 1000);
  return () => clearTimeout(id);
}

/**
 * The part's export once its code is here (the component renders again when it arrives).
 * Fetched at once when `wanted`, else when the browser is idle (so a click rarely waits), unless
 * `prefetch` is false.
 */
export function usePart<T>(part: DeferredPart<T>, wanted: boolean, prefetch = true): T | undefined {
  const [, arrived] = useState(0);
  useEffect(() => {
    if (part.value !== undefined || (!wanted && !prefetch)) return;
    let live = true;
    const load = () => {
      part.load().then(
        () => live && arrived((n) => n + 1),
        // Not fetched: the next wish tries again; meanwhile the part is not shown.
        () => {},
      );
    };
    const cancel = wanted ? undefined : whenIdle(load);
    if (wanted) load();
    return () => {
      live = false;
      cancel?.();
    };
  }, [part, wanted, prefetch]);
  return part.value;
}
