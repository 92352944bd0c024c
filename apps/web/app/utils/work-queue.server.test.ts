import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BusyError, createWorkQueue } from "./work-queue.server";

/** A piece of work the test finishes by hand. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { done, open };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("a work queue", () => {
  it("runs `concurrency` pieces, queues `maxWaiting`, and refuses the rest at once", async () => {
    const q = createWorkQueue({ concurrency: 1, maxWaiting: 2, typicalMs: 1500 });
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      q.run(async () => {
        started.push(i);
        await g.done;
        return i;
      }),
    );
    await settle();
    expect(started).toEqual([0]);
    expect([q.running, q.waiting, q.full]).toEqual([1, 2, true]);
    expect(q.refuses()).toBe(true);
    const refused = await q.run(async () => "never").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BusyError);
    // Three pieces ahead at 1.5 s each.
    expect((refused as BusyError).retryAfterSeconds).toBe(5);
    gates[0]!.open();
    await settle();
    expect(started).toEqual([0, 1]);
    expect(q.full).toBe(false);
    gates[1]!.open();
    gates[2]!.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect([q.running, q.waiting]).toEqual([0, 0]);
  });

  it("lets one client hold only its share of the places", async () => {
    const q = createWorkQueue({ concurrency: 1, maxWaiting: 8, perKey: 2, typicalMs: 100 });
    const g = gate();
    const mine = [q.run(() => g.done, { key: "a" }), q.run(() => g.done, { key: "a" })];
    expect([q.refuses("a"), q.refuses("b"), q.refuses()]).toEqual([true, false, false]);
    await expect(q.run(() => g.done, { key: "a" })).rejects.toBeInstanceOf(BusyError);
    const other = q.run(async () => "b", { key: "b" });
    g.open();
    await Promise.all(mine);
    expect(await other).toBe("b");
    // Places are given back, also when the work fails.
    await expect(q.run(() => Promise.reject(new Error("x")), { key: "a" })).rejects.toThrow("x");
    expect(await q.run(async () => "again", { key: "a" })).toBe("again");
  });

  it("never runs or queues more than allowed, starts in order, and runs every accepted piece", async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("add" as const), key: fc.constantFrom("a", "b", "c") }),
      fc.record({ kind: fc.constant("finish" as const), which: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(op, { maxLength: 40 }),
        async (concurrency, maxWaiting, perKey, ops) => {
          const q = createWorkQueue({ concurrency, maxWaiting, perKey, typicalMs: 10 });
          const accepted: number[] = [];
          const started: number[] = [];
          const running = new Map<number, () => void>();
          const held = new Map<string, number>();
          const promises: Promise<unknown>[] = [];
          let n = 0;
          for (const o of ops) {
            if (o.kind === "add") {
              const id = n++;
              const before = {
                running: q.running,
                waiting: q.waiting,
                mine: held.get(o.key) ?? 0,
                refuses: q.refuses(o.key),
              };
              const g = gate();
              const p = q.run(
                async () => {
                  started.push(id);
                  running.set(id, g.open);
                  await g.done;
                },
                { key: o.key },
              );
              const refused = await Promise.race([
                p.then(
                  () => false,
                  (e) => e instanceof BusyError,
                ),
                settle().then(() => false),
              ]);
              const limitHit =
                before.mine >= perKey ||
                (before.running >= concurrency && before.waiting >= maxWaiting);
              expect(refused).toBe(limitHit);
              expect(before.refuses).toBe(limitHit);
              if (!refused) {
                accepted.push(id);
                held.set(o.key, (held.get(o.key) ?? 0) + 1);
                promises.push(p.then(() => held.set(o.key, (held.get(o.key) ?? 1) - 1)));
              }
            } else if (running.size > 0) {
              const ids = [...running.keys()];
              const id = ids[o.which % ids.length]!;
              running.get(id)!();
              running.delete(id);
              await settle();
            }
            expect(q.running).toBeLessThanOrEqual(concurrency);
            expect(q.waiting).toBeLessThanOrEqual(maxWaiting);
            expect(running.size).toBe(q.running);
          }
          // Finish everything: every accepted piece ran, in the order it was accepted.
          while (running.size > 0) {
            for (const [id, open] of [...running]) {
              open();
              running.delete(id);
            }
            await settle();
          }
          await Promise.all(promises);
          expect(started).toEqual(accepted);
          expect([q.running, q.waiting]).toEqual([0, 0]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
