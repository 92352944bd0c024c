/**
 * Racer faces end to end on the built app: an admin uploads portraits on the dashboard (with
 * JavaScript, and the plain form without), each file says what happened, the stored portrait
 * shows on /view-racers, and a racer without one shows their generated avatar with initials.
 */
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, type TestAccount, withAccounts } from "./support/accounts";
import { type RunningApp, startApp } from "./support/app";
import { launchBrowser, watchErrors } from "./support/browser";

const admin: TestAccount = {
  username: "FaceAdmin",
  email: "faces@example.com",
  password: "downhill-only-1",
  role: "admin",
};

let app: RunningApp;
let browser: Browser;
let jpeg: Buffer;
let png: Buffer;

beforeAll(async () => {
  const draw = (background: string) =>
    sharp({ create: { width: 300, height: 240, channels: 3, background } });
  [jpeg, png] = await Promise.all([
    draw("#2050a0").jpeg().toBuffer(),
    draw("#a02050").png().toBuffer(),
  ]);
  [app, browser] = await Promise.all([startApp({ prepare: withAccounts(admin) }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The view-racers row of a racer: its portrait's src (or avatar initials). */
async function face(page: Page, name: string) {
  const row = page.getByRole("tabpanel").locator("tbody tr", { hasText: name });
  return row.evaluate((tr) => {
    const img = tr.querySelector("img");
    const svg = tr.querySelector("svg[data-avatar]");
    return {
      src: img?.getAttribute("src") ?? null,
      loaded: img ? img.complete && img.naturalWidth > 0 : false,
      initials: svg?.textContent ?? null,
    };
  });
}

describe("racer portraits", () => {
  it("an admin uploads several files on the dashboard; each says what happened", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await logIn(page, app.url, admin);
    await page.goto(`${app.url}/admin`);
    await page.getByRole("heading", { name: "Upload portraits" }).waitFor();
    await page.getByLabel("Portrait files").setInputFiles([
      { name: "Loic-Bruni.jpg", mimeType: "image/jpeg", buffer: jpeg },
      // Named like a JPEG, but text: refused by its content.
      { name: "Amaury-Pierron.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not a photo") },
    ]);
    await page.getByRole("button", { name: "Upload portraits" }).click();
    const result = page.getByRole("list", { name: "Uploaded files" });
    await result.waitFor({ timeout: 30_000 });
    const text = (await result.textContent()) ?? "";
    expect(text).toContain("Loic-Bruni.jpg: stored for Loïc Bruni");
    expect(text).toContain("as loic-bruni.webp");
    expect(text).toContain("Amaury-Pierron.jpg: skipped: Not a PNG, JPEG or WebP image");
    // Still on the dashboard: the script posted in the background.
    expect(new URL(page.url()).pathname).toBe("/admin");
    // The racer table shows each racer's face: the stored portrait, or the avatar.
    await page.goto(`${app.url}/admin?game=5&category=pro-men`);
    const row = (name: string) => page.locator("tbody tr", { hasText: name }).first();
    expect(await row("Loïc Bruni").locator("img").getAttribute("src")).toBe(
      "/img/racer_portrait/loic-bruni.webp",
    );
    expect(await row("Amaury Pierron").locator("svg[data-avatar]").textContent()).toBe("AP");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the portrait on /view-racers, and initials for a racer without one", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/view-racers`);
    await expect
      .poll(() => face(page, "Loïc Bruni"), { timeout: 15_000 })
      .toMatchObject({ src: "/img/racer_portrait/loic-bruni.webp", loaded: true });
    expect(await face(page, "Amaury Pierron")).toMatchObject({ src: null, initials: "AP" });
    const image = await page.request.get(`${app.url}/img/racer_portrait/loic-bruni.webp`);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/webp");
    expect(image.headers()["cache-control"]).toContain("max-age=86400");
    expect(image.headers().etag).toMatch(/^"[\w-]+-t"$/);
    expect((await page.request.get(`${app.url}/img/racer_portrait/nobody.webp`)).status()).toBe(
      404,
    );
    await context.close();
  });

  it("takes the upload without JavaScript and shows the result page", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await logIn(page, app.url, admin);
    await page.goto(`${app.url}/admin`);
    await page
      .getByLabel("Portrait files")
      .setInputFiles([{ name: "Amaury-Pierron.png", mimeType: "image/png", buffer: png }]);
    await page.getByRole("button", { name: "Upload portraits" }).click();
    await page.waitForURL(`${app.url}/admin/portraits`);
    expect(await page.getByRole("list", { name: "Uploaded files" }).textContent()).toContain(
      "Amaury-Pierron.png: stored for Amaury Pierron",
    );
    await page.goto(`${app.url}/view-racers`);
    expect(await face(page, "Amaury Pierron")).toMatchObject({
      src: "/img/racer_portrait/amaury-pierron.webp",
    });
    await context.close();
  });
});
