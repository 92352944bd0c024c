/**
 * The admin story end to end, on the built app with its embedded database: a player is made admin
 * by the real CLI while the app runs, uploads racers in the browser (preview, disabled states,
 * each of the spec's three alerts, the plain form without JavaScript), and changes event status
 * from the dashboard and from the CLI, which the home page then shows.
 */
import type { Browser, BrowserContext, Dialog, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";
import { ensureCliBuilt, runCli } from "./support/cli";

let app: RunningApp;
let browser: Browser;

/** The real `game-admin` binary against the running app's data folder (it goes through the app). */
const cli = (...args: string[]) => runCli(app, ...args);

beforeAll(async () => {
  ensureCliBuilt();
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const HEADER = "Category,First Name,Last Name,Picture,Origin,Game ID,Rank2024,TotalPoint2024,Price";
const RACERS_CSV = [
  `\uFEFF${HEADER}`,
  "Pro Men,Alpha,One,,FRA,7,1,1000,300000",
  "Pro Men,Bravo,Two,,AUS,7,2,900,280000",
  "Pro Women,,Nameless,,GBR,7,3,800,200000",
  "Pro Women,Charlie,Three,,AUT,7,1,950,260000",
  'Pro Women,"=HYPERLINK(""http://evil.example"",""x"")",Four,,USA,7,2,850,240000',
  "17-18 Men,Echo,Five,,CAN,7,1,300,90000",
  "17-18 Women,Foxtrot,Six,,NZL,7,1,280,85000",
  "17-18 Women,Golf,Seven,,GER,7,2,250,cheap",
].join("\r\n");

function csvFile(name: string, text: string) {
  return { name, mimeType: "text/csv", buffer: Buffer.from(text, "utf8") };
}

describe("admin dashboard", () => {
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const dialogs: string[] = [];
  const email = "boss@example.com";

  beforeAll(async () => {
    context = await browser.newContext();
    page = await context.newPage();
    errors = watchErrors(page);
    page.on("dialog", (d: Dialog) => {
      dialogs.push(d.message());
      void d.accept();
    });
  });
  afterAll(() => context.close());

  const uploadButton = () =>
    page.getByRole("button", { name: /^(Upload Racers|Uploading\.\.\.)$/ });
  const nextDialog = async (count: number) => {
    await expect.poll(() => dialogs.length, { timeout: 20_000 }).toBe(count);
    return dialogs[count - 1];
  };

  it("refuses a player (403), then lets them in once the CLI makes them admin", async () => {
    await page.goto(`${app.url}/signup`);
    const form = page.getByRole("main");
    await form.getByLabel("Username", { exact: true }).fill("Boss");
    await form.getByLabel("Email", { exact: true }).fill(email);
    await form.getByLabel("Password", { exact: true }).fill("downhill-only-1");
    await form.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(`${app.url}/homepage`);

    const refused = await page.goto(`${app.url}/admin`);
    expect(refused?.status()).toBe(403);
    expect(await page.getByRole("heading", { name: "Admin Dashboard" }).count()).toBe(0);

    const granted = await cli("users", "grant-admin", email);
    expect(granted.stderr).toBe("");
    expect(granted).toMatchObject({ code: 0, stdout: `${email} is now an admin.\n` });

    const ok = await page.goto(`${app.url}/admin`);
    expect(ok?.status()).toBe(200);
    await page.getByRole("heading", { name: "Admin Dashboard", level: 1 }).waitFor();
    // Disabled once the page's script runs, as long as no rows are loaded.
    await expect.poll(() => uploadButton().isDisabled()).toBe(true);
  });

  it("previews up to 5 racers with the rows read and skipped, then uploads them", async () => {
    await page.getByLabel("CSV file").setInputFiles(csvFile("racers-2027.csv", RACERS_CSV));
    const preview = page.getByRole("table", { name: /^Preview:/ });
    await preview.waitFor();
    expect(await preview.locator("caption").textContent()).toBe("Preview: first 5 of 7 racers");
    expect(await preview.locator("tbody tr").count()).toBe(5);
    const text = await page.locator(".admin-upload-preview").textContent();
    expect(text).toContain("8 rows read, 1 skipped.");
    expect(text).toContain("Line 4: missing First Name");
    // Formula-like cells stay inert text.
    expect(text).toContain('=HYPERLINK("http://evil.example","x")');
    expect(text).toContain('Line 9: Price "cheap" is not a number: used 75000');
    // The server's dry run lists every field the upload would set.
    const changes = page.getByRole("region", { name: "What the upload would change" });
    await changes.waitFor();
    expect(await changes.textContent()).toContain(
      'Line 2: new racer Alpha One (event 7): Category (none) → "Pro Men"',
    );
    expect(await uploadButton().isEnabled()).toBe(true);

    // Hold the request a moment so the busy state can be seen.
    await page.route("**/admin/racers", async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await uploadButton().click();
    await page.getByRole("button", { name: "Uploading..." }).waitFor();
    expect(await page.getByRole("button", { name: "Uploading..." }).isDisabled()).toBe(true);
    // A row was skipped: the spec's "All racers..." would not be true.
    expect(await nextDialog(1)).toBe(
      "Racers uploaded, but 1 row was skipped: see the list on the page.",
    );
    await page.unroute("**/admin/racers");
    await page.getByRole("button", { name: "Upload Racers" }).waitFor();
    const result = page.getByRole("alert").filter({ hasText: "Racers uploaded, but 1 row" });
    expect(await result.textContent()).toContain(
      "8 rows read: 7 created, 0 updated, 0 unchanged, 1 skipped.",
    );

    // The racers are in the app's database: the CLI reads them through the running app.
    const listed = await cli("racers", "list", "--game", "7", "--json");
    expect(listed.code).toBe(0);
    const racers = JSON.parse(listed.stdout) as { firstName: string; price: number }[];
    expect(racers).toHaveLength(7);
    expect(racers.map((r) => r.firstName)).toContain('=HYPERLINK("http://evil.example","x")');
    expect(racers.find((r) => r.firstName === "Golf")?.price).toBe(75000);
    // And the list on the dashboard was refreshed: the 81 seed racers and these 7.
    await page.getByText("88 racers.", { exact: true }).waitFor();
  });

  it("uploading the same file again changes nothing and adds no racer", async () => {
    await page.getByLabel("CSV file").setInputFiles(csvFile("racers-2027.csv", RACERS_CSV));
    await page.getByRole("table", { name: /^Preview:/ }).waitFor();
    await uploadButton().click();
    expect(await nextDialog(2)).toBe(
      "Racers uploaded, but 1 row was skipped: see the list on the page.",
    );
    await page.getByText("0 created, 0 updated, 7 unchanged, 1 skipped.").waitFor();
    const listed = await cli("racers", "list", "--game", "7", "--json");
    expect(JSON.parse(listed.stdout)).toHaveLength(7);
  });

  it("alerts 'No data to upload' when every row read is skipped", async () => {
    await page
      .getByLabel("CSV file")
      .setInputFiles(csvFile("blank.csv", `${HEADER}\nPro Men,,Nobody\nPro Men,Only,\n`));
    await page.getByText("2 rows read, 2 skipped.").waitFor();
    expect(await uploadButton().isEnabled()).toBe(true);
    await uploadButton().click();
    expect(await nextDialog(3)).toBe("No data to upload. Please select a valid CSV file.");
    await page.getByRole("alert").filter({ hasText: "No data to upload." }).waitFor();
  });

  it("alerts the failure (and logs it) when the server refuses the upload", async () => {
    // Rows the browser cannot check: event 99 does not exist, so the server skips them all.
    await page
      .getByLabel("CSV file")
      .setInputFiles(csvFile("nowhere.csv", `${HEADER}\nPro Men,Lost,Rider,,,99,1,1,1\n`));
    await page.getByText("1 row read, 0 skipped.").waitFor();
    await uploadButton().click();
    expect(await nextDialog(4)).toBe("Failed to upload racers. Check console for errors.");
    const shown = page
      .getByRole("alert")
      .filter({ hasText: "None of the rows could be imported." });
    expect(await shown.textContent()).toContain("Line 2: unknown event 99");
    expect(errors.some((e) => e.includes("Racer upload failed"))).toBe(true);
    errors.length = 0;
  });

  it("alerts 'No data to upload' with the reason for an empty or a non-racer file", async () => {
    await page.getByLabel("CSV file").setInputFiles(csvFile("other.csv", "Name,Team\nA,B\n"));
    await page
      .getByText(/^Line 1: the header has no Category, First Name, Last Name column/)
      .waitFor();
    await uploadButton().click();
    expect(await nextDialog(5)).toBe("No data to upload. Please select a valid CSV file.");
    await page.getByLabel("CSV file").setInputFiles(csvFile("empty.csv", ""));
    await page.getByText("The file is empty.").waitFor();
    expect(await uploadButton().isEnabled()).toBe(true);
    await uploadButton().click();
    expect(await nextDialog(6)).toBe("No data to upload. Please select a valid CSV file.");
    await page
      .getByRole("alert")
      .filter({ hasText: "No data to upload. Please select a valid CSV file. The file is empty." })
      .waitFor();
    expect(errors).toEqual([]);
  });

  it("previews an Excel file with a trailing comma and a Windows-1252 name as it uploads", async () => {
    const bytes = Buffer.concat([
      Buffer.from(`${HEADER},\r\n\r\nPro Men,Lo`),
      Buffer.from([0xef]),
      Buffer.from("c,Excel,,FRA,7,3,10,90000,\r\n"),
    ]);
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "excel.csv", mimeType: "text/csv", buffer: bytes });
    await page.getByText("1 row read (Windows-1252), 0 skipped.").waitFor();
    await uploadButton().click();
    expect(await nextDialog(7)).toBe("All racers successfully uploaded!");
    const listed = await cli("racers", "list", "--game", "7", "--json");
    expect(JSON.parse(listed.stdout).map((r: { firstName: string }) => r.firstName)).toContain(
      "Loïc",
    );
  });

  it("uploads without JavaScript through the plain form", async () => {
    const plain = await browser.newContext({ javaScriptEnabled: false });
    try {
      await plain.addCookies(await context.cookies());
      const p = await plain.newPage();
      await p.goto(`${app.url}/admin`);
      await p
        .getByLabel("CSV file")
        .setInputFiles(csvFile("plain.csv", `${HEADER}\nPro Men,Plain,Form,,,8,1,1,100000\n`));
      await p.getByRole("button", { name: "Upload Racers" }).click();
      await p.waitForLoadState();
      const alert = p.getByRole("alert");
      expect(await alert.textContent()).toContain("All racers successfully uploaded!");
      expect(await alert.textContent()).toContain("1 created");
      const listed = await cli("racers", "list", "--game", "8", "--json");
      expect(JSON.parse(listed.stdout)).toMatchObject([{ firstName: "Plain", price: 100000 }]);
    } finally {
      await plain.close();
    }
  });

  it("changes an event's status on the dashboard and from the CLI; the home page shows both", async () => {
    // Rounds 2 and 5 get round 1's racers: a round without racers cannot be opened.
    for (const round of ["6", "9"]) {
      const copied = await cli("racers", "copy", "5", round);
      expect(copied.code).toBe(0);
    }
    await page.goto(`${app.url}/admin/events`);
    const round5 = page.getByRole("form", { name: /^9\. Pro Downhill Series Round 5/ });
    await round5.getByLabel("Status").selectOption("open");
    await round5.getByRole("button", { name: "Save" }).click();
    await round5.getByText(/^Saved Pro Downhill Series Round 5: Sun Peaks: open/).waitFor();

    const cliChange = await cli("events", "status", "6", "open");
    expect(cliChange).toMatchObject({ code: 0 });

    await page.goto(`${app.url}/`);
    const cards = page.getByRole("list", { name: "Events" }).getByRole("article");
    for (const name of ["Round 2: Snowshoe", "Round 5: Sun Peaks"]) {
      const card = cards.filter({ hasText: name });
      expect(await card.getByRole("link", { name: /Enter Event/ }).count(), name).toBe(1);
    }
    const audit = await page.goto(`${app.url}/admin/audit?action=event.status`);
    expect(audit?.status()).toBe(200);
    const log = page.getByRole("region", { name: "Audit log table" });
    // CLI writes name the operating-system user who ran them ("cli:<user>").
    await log
      .getByText(/^cli:\S+$/)
      .first()
      .waitFor();
    expect(await log.getByText(`web:${email}`).count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it("fits a 360px-wide phone: wide tables scroll inside their own region", async () => {
    await page.setViewportSize({ width: 360, height: 760 });
    for (const section of ["", "/events", "/users", "/partners", "/outbox", "/audit"]) {
      await page.goto(`${app.url}/admin${section}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `/admin${section}`).toBeLessThanOrEqual(360);
    }
    expect(errors).toEqual([]);
  });
});
