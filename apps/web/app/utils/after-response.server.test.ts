import type { AppLoadContext } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import {
  AFTER_RESPONSE_CONCURRENCY,
  AFTER_RESPONSE_MAX_QUEUED,
  afterResponse,
  afterResponseQueued,
  afterResponseSettled,
} from "./after-response.server";
import { type ErrorLogEntry, setErrorSink } from "./log.server";

/** A context whose responses the test sends: `send()` is the server's response closing. */
function fakeRequest() {
  const starts: Array<() => void> = [];
  const closers: Array<() => Promise<void>> = [];
  const context = {
    db: {},
    afterResponse: (start: () => void) => starts.push(start),
    onClose: (fn: () => Promise<void>) => closers.push(fn),
  } as unknown as AppLoadContext;
  const send = () => {
    for (const start of starts.splice(0)) start();
  };
  return { context, send, closers };
}

/** A piece of work that runs until the test ends it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

afterEach(async () => {
  await afterResponseSettled();
  setErrorSink(null);
});

describe("work after the response", () => {
  it("starts only once the response is sent, then runs and is waited for", async () => {
    const { context, send } = fakeRequest();
    const ran: string[] = [];
    afterResponse(context, "test", async () => {
      ran.push("mail");
    });
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual([]);
    expect(afterResponseQueued()).toBe(1);
    send();
    await afterResponseSettled();
    expect(ran).toEqual(["mail"]);
    expect(afterResponseQueued()).toBe(0);
  });

  it(`runs ${AFTER_RESPONSE_CONCURRENCY} at once; the others wait their turn`, async () => {
    const { context, send } = fakeRequest();
    const gates = Array.from({ length: AFTER_RESPONSE_CONCURRENCY + 3 }, gate);
    let running = 0;
    let most = 0;
    for (const g of gates) {
      afterResponse(context, "test", async () => {
        running++;
        most = Math.max(most, running);
        await g.opened;
        running--;
      });
    }
    send();
    await new Promise((r) => setImmediate(r));
    expect(running).toBe(AFTER_RESPONSE_CONCURRENCY);
    for (const g of gates) g.open();
    await afterResponseSettled();
    expect(most).toBe(AFTER_RESPONSE_CONCURRENCY);
    expect(running).toBe(0);
  });

  it("drops work past the bound and logs failures, never throwing into the request", async () => {
    const logged: ErrorLogEntry[] = [];
    setErrorSink((e) => logged.push(e));
    const { context, send } = fakeRequest();
    afterResponse(context, "broken", async () => {
      throw new Error("smtp down");
    });
    send();
    await afterResponseSettled();
    expect(logged.some((e) => e.where === "broken" && e.error.includes("smtp down"))).toBe(true);

    let ran = 0;
    for (let i = 0; i < AFTER_RESPONSE_MAX_QUEUED + 5; i++) {
      afterResponse(context, "reset mail", async () => {
        ran++;
      });
    }
    expect(afterResponseQueued()).toBe(AFTER_RESPONSE_MAX_QUEUED);
    expect(logged.filter((e) => e.where === "reset mail: dropped")).toHaveLength(5);
    send();
    await afterResponseSettled();
    expect(ran).toBe(AFTER_RESPONSE_MAX_QUEUED);
  });

  it("is waited for at shutdown, once per database", async () => {
    const { context, send, closers } = fakeRequest();
    let done = false;
    afterResponse(context, "test", async () => {
      done = true;
    });
    afterResponse(context, "test", async () => {});
    expect(closers).toHaveLength(1);
    send();
    await closers[0]!();
    expect(done).toBe(true);
  });
});
