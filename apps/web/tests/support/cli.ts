/** The real `game-admin` binary, run by browser tests against a running app's data folder. */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { RunningApp } from "./app";

const cliDir = fileURLToPath(new URL("../../../../cli/", import.meta.url));
const cliBin = `${cliDir}bin/game-admin.js`;

/** The CLI is its own workspace: builds it if this run has not yet. */
export function ensureCliBuilt(): void {
  if (!existsSync(`${cliDir}dist/index.js`)) {
    spawnSync("npx", ["tsup"], { cwd: cliDir, stdio: "ignore" });
  }
}

/**
 * Runs `game-admin ...args` on a data folder: a running app's (it goes through the app) or any
 * other, on the embedded database.
 */
export function runCli(
  app: Pick<RunningApp, "dataDir">,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: app.dataDir };
  delete env.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, ...args], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
