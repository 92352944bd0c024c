// Embed latency: how long a partner page waits for a widget's data once the embed's loader has
// arrived, on a network where every request takes a round trip (docs/decisions/0182).
//
//   npm run bench -- embed-latency
//
// Starts the built app (`node build/server.js`, production mode) on a fresh embedded database,
// registers a partner site with the real `game-admin partners add`, serves that site a page with
// two racer tables (one with `event`, one without, which must first find the open event), and
// loads it BENCH_LOADS times each way in Debian's Chromium, every request delayed by
// BENCH_LATENCY_MS (Chromium's network emulation; a fresh browser context each time, so nothing
// is cached):
// - as served: the hello brings the widgets' first data;
// - the hello passed through the harness as it is, then with its data taken out on its way to the
//   page, so each widget asks the API itself (as before decision 0182). The harness gives the
//   hello the same delay both ways, so these two compare with each other (the harness itself
//   costs time: compare them, not either with the first).
// Prints, per load, the time from the loader's arrival to both tables showing rows, and the API
// requests the page made before that. Target: none as served (exit 1 when missed), so the rows
// come one round trip after the loader's.
//
// Environment: BENCH_LATENCY_MS (100), BENCH_LOADS (9), CHROMIUM_PATH (/usr/bin/chromium).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const webRoot = path.join(repo, "apps/web");

// Run by hand, never by turbo: these settings do not belong in turbo.json.
const { BENCH_LATENCY_MS, BENCH_LOADS, CHROMIUM_PATH } = process.env;
const LATENCY_MS = Number(BENCH_LATENCY_MS ?? 100);
const LOADS = Number(BENCH_LOADS ?? 9);

const dataDir = mkdtempSync(path.join(tmpdir(), "gf-bench-embed-"));
let app;
let site;
let browser;
let appOutput = "";

try {
  await main();
} catch (error) {
  console.error(error);
  console.error(appOutput.split("\n").slice(-20).join("\n"));
  process.exitCode = 1;
} finally {
  await browser?.close();
  site?.close();
  app?.kill("SIGTERM");
  if (app) await new Promise((resolve) => app.once("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
}

async function main() {
  // The partner's site first: its address is what the game lists as the partner's origin.
  let appUrl = "";
  site = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script src="${appUrl}/embed/v1/widgets.js" async></script></head><body>
<gf-racer-table id="known" event="5" category="pro-women"></gf-racer-table>
<gf-racer-table id="open"></gf-racer-table></body></html>`);
  });
  await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve));
  const siteUrl = `http://127.0.0.1:${site.address().port}`;

  appUrl = await startApp();
  // The app seeded its database on start; the partner is added while it runs.
  const env = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  execFileSync(
    process.execPath,
    [path.join(repo, "cli/bin/game-admin.js"), "partners", "add", "Bench Site", siteUrl],
    { env, encoding: "utf8" },
  );

  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const runs = [
    ["as served", await loads(siteUrl, "served")],
    ["through the harness, data kept", await loads(siteUrl, "kept")],
    ["through the harness, data taken out", await loads(siteUrl, "taken")],
  ];
  console.log(`embed-latency: ${LOADS} loads each way, every request delayed ${LATENCY_MS} ms`);
  for (const [name, run] of runs) {
    const sorted = [...run.times].sort((a, b) => a - b);
    console.log(
      `${name}: loader to rows, ms: ${run.times.join(", ")} (median ${sorted[Math.floor(sorted.length / 2)]}); API requests before the rows: ${run.early.join(", ")}`,
    );
  }
  console.log("target: as served, no API request before the rows (the data comes with the hello)");
  if (runs[0][1].early.some((n) => n > 0)) {
    console.log("MISSED: a widget asked the API for its first data itself");
    process.exitCode = 1;
  }
}

/** Loads the partner's page LOADS times: as served, or the hello through the harness. */
async function loads(siteUrl, mode) {
  const times = [];
  const early = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: LATENCY_MS,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    if (mode !== "served") {
      await page.route(/\/embed\/v1\/hello\?/, async (route) => {
        const res = await route.fetch();
        const body = await res.json();
        if (mode === "taken") delete body.data;
        // What the emulation would have added to a request the harness made itself.
        await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
        await route.fulfill({ response: res, json: body });
      });
    }
    const api = [];
    page.on("request", (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith("/api/v1/")) api.push(pathname);
    });
    await page.goto(siteUrl, { waitUntil: "commit" });
    const ms = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const tick = () => {
            const shown = [...document.querySelectorAll("gf-racer-table")].every(
              (el) => (el.shadowRoot?.querySelectorAll("tbody tr").length ?? 0) > 1,
            );
            if (!shown) return requestAnimationFrame(tick);
            const loader = performance
              .getEntriesByType("resource")
              .find((e) => e.name.includes("/embed/v1/widgets.js"));
            resolve(performance.now() - loader.responseEnd);
          };
          tick();
        }),
    );
    times.push(Math.round(ms));
    early.push(api.length);
    await context.close();
  }
  return { times, early };
}

/** Starts the built app on the bench's data folder; resolves with its address. */
function startApp() {
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
  };
  delete env.DATABASE_URL;
  app = spawn(process.execPath, ["build/server.js"], { cwd: webRoot, env });
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      appOutput += chunk;
      const port = /http:\/\/localhost:(\d+)/.exec(appOutput)?.[1];
      if (port) resolve(`http://localhost:${port}`);
    };
    app.stdout.on("data", onData);
    app.stderr.on("data", onData);
    app.once("exit", (code) => reject(new Error(`the app exited (${code}) before listening`)));
  });
}
