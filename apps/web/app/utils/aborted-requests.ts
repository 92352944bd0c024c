/**
 * A navigation that another one interrupts aborts its data request. When that happens after the
 * response's first line arrived, the stream decoder Remix uses (turbo-stream) rejects a promise
 * Remix never awaits (the reader's `closed`), and the browser reports "signal is aborted without
 * reason" as an uncaught error although nothing failed. Only aborts are kept quiet: any other
 * unhandled rejection still reaches the console.
 */
export function isAbort(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === "AbortError";
}

export function quietAbortedRequests(target: Pick<Window, "addEventListener">) {
  target.addEventListener("unhandledrejection", (event) => {
    if (isAbort(event.reason)) event.preventDefault();
  });
}
