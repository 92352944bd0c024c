import { accounts, events, outbox, seed, users } from "@game/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type CliTarget, cliTarget, runCli } from "../../test-support.js";

let t: CliTarget;

async function addPlayer(name: string): Promise<void> {
  const db = t.h!.db;
  const [a] = await db
    .insert(accounts)
    .values({ email: `${name}@example.com`, passwordHash: "test:unusable" })
    .returning();
  await db.insert(users).values({
    id: a!.id,
    email: a!.email,
    username: name,
    usernameKey: name,
    // Reminders go to confirmed addresses only (decision 0151).
    emailConfirmedAt: new Date(),
  });
}

beforeAll(async () => {
  t = await cliTarget({ hold: true });
  const db = t.h!.db;
  await seed(db);
  // Round 1 locks in 20 hours: its reminders are due now.
  await db
    .update(events)
    .set({ startsAt: new Date(Date.now() + (12 + 20) * 3_600_000) })
    .where(eq(events.id, 5));
  for (const name of ["ann", "ben"]) await addPlayer(name);
});
afterAll(() => t?.close());

/** The CLI with these variables (PUBLIC_URL unset unless given, no SMTP). */
const withEnv = (env: NodeJS.ProcessEnv = {}): CliTarget => ({
  ...t,
  env: { ...t.env, PUBLIC_URL: "", SMTP_URL: "", ...env },
});

const refusal = /^error: Cannot tell the site's address for the links: .*set PUBLIC_URL/;

it("refuses to send when it cannot tell the site's address, and sends nothing", async () => {
  // The app serving the database has not said where it is (still starting), or on PostgreSQL
  // there is no app to ask.
  const refused = await runCli(withEnv(), "reminders", "send");
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(refusal);
  expect(refused.stdout).toBe("");
  expect(await t.h!.db.select().from(outbox)).toEqual([]);

  if (t.kind === "pglite") {
    // No app running on the folder at all.
    const idle = await cliTarget();
    try {
      const none = await runCli(
        { ...idle, env: { ...idle.env, PUBLIC_URL: "" } },
        "reminders",
        "send",
      );
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/start the app .* or set PUBLIC_URL/);
    } finally {
      await idle.close();
    }
  }

  // A dry run mails no link: it counts without an address.
  const dry = await runCli(withEnv(), "reminders", "send", "--dry-run");
  expect(dry.code).toBe(0);
  expect(dry.stdout).toMatch(
    /\(event 5\), locks .*: 2 players due a reminder\.\nDry run: nothing sent\./,
  );
  expect(await t.h!.db.select().from(outbox)).toEqual([]);
});

it("sends once to the outbox with PUBLIC_URL (before the app's address), nothing the second time", async () => {
  t.socket?.publish({ publicUrl: "http://localhost:4101" });
  const sent = await runCli(
    withEnv({ PUBLIC_URL: "https://fantasy.example" }),
    "reminders",
    "send",
    "--json",
  );
  expect(sent.code, sent.stderr).toBe(0);
  expect(JSON.parse(sent.stdout)).toMatchObject({ sent: 2, failed: 0, dryRun: false });
  const mails = await t.h!.db.select().from(outbox);
  expect(mails.map((m) => m.to).sort()).toEqual(["ann@example.com", "ben@example.com"]);
  expect(mails[0]!.text).toContain("https://fantasy.example/team-setup?game=5");
  expect(mails[0]!.text).not.toContain("localhost");

  const again = await runCli(
    withEnv({ PUBLIC_URL: "https://fantasy.example" }),
    "reminders",
    "send",
  );
  expect(again.code).toBe(0);
  expect(again.stdout).toMatch(/: 0 reminders sent\./);
  expect(await t.h!.db.select().from(outbox)).toHaveLength(2);
});

it.skipIf(Boolean(process.env.DATABASE_URL))(
  "links to the address the running app published when PUBLIC_URL is unset (another port)",
  async () => {
    await addPlayer("cat");
    t.socket!.publish({ publicUrl: "http://localhost:4101" });
    const sent = await runCli(withEnv(), "reminders", "send");
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/: 1 reminders sent\./);
    const [mail] = await t.h!.db.select().from(outbox).where(eq(outbox.to, "cat@example.com"));
    expect(mail!.text).toContain("http://localhost:4101/team-setup?game=5");
    expect(mail!.text).toMatch(
      /http:\/\/localhost:4101\/reminders\/unsubscribe\?u=\d+&t=[0-9a-f]{32}/,
    );
    expect(mail!.headers).toMatchObject({
      "List-Unsubscribe": expect.stringMatching(
        /^<http:\/\/localhost:4101\/reminders\/unsubscribe\?u=/,
      ),
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(mail!.text).not.toContain("localhost:3000");
  },
);
