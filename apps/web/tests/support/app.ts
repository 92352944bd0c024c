/**
 * Starts the built app (`node build/server.js`) on a free port with a fresh embedded database,
 * the way a player gets it from `npm start`, for browser tests: a copy of a migrated, seeded
 * database (a first start's migrations and seed are tested by the server tests).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb, migrationsFolder, seed } from "@game/db";

const webRoot = fileURLToPath(new URL("../..", import.meta.url));
const dbDist = fileURLToPath(new URL("../../../../packages/db/dist", import.meta.url));

/**
 * A migrated, seeded database folder, made once per build of @game/db (its code, migrations and
 * engine) and copied into each test's data folder: a first start's initdb, migrations and seed
 * cost about five seconds per test file. The app then starts as it does on an existing folder.
 */
let template: Promise<string> | undefined;
function seededTemplate(): Promise<string> {
  template ??= (async () => {
    const hash = createHash("sha256");
    for (const dir of [dbDist, migrationsFolder]) {
      for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
        const full = path.join(dir, name);
        if (!name.endsWith(".map") && path.extname(name))
          hash.update(name).update(readFileSync(full));
      }
    }
    hash.update(readFileSync(path.join(webRoot, "../../package-lock.json")));
    const dir = path.join(tmpdir(), `gf-app-template-${hash.digest("hex").slice(0, 16)}`);
    if (existsSync(dir)) return dir;
    // Made whole under another name, then renamed: another worker never copies half a folder.
    const building = `${dir}.${randomBytes(4).toString("hex")}`;
    const handle = await createDb({ dataDir: building, url: "" });
    try {
      await seed(handle.db);
    } finally {
      await handle.close();
    }
    try {
      renameSync(building, dir);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another worker made it first
    }
    return dir;
  })();
  return template;
}

export interface RunningApp {
  url: string;
  dataDir: string;
  /** Everything the server printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export async function startApp(
  opts: {
    env?: Record<string, string>;
    /** Runs on the fresh data folder before the server starts (e.g. to put rows in its database). */
    prepare?: (dataDir: string) => Promise<void>;
  } = {},
): Promise<RunningApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "gf-app-"));
  cpSync(path.join(await seededTemplate(), "pgdata"), path.join(dataDir, "pgdata"), {
    recursive: true,
  });
  await opts.prepare?.(dataDir);
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env };
  // Browser tests use the embedded default unless a test passes a database explicitly.
  if (!opts.env?.DATABASE_URL) delete env.DATABASE_URL;
  Object.assign(env, { NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir });
  const child = spawn(process.execPath, ["build/server.js"], { cwd: webRoot, env });
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    out += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`app did not start in 60 s:\n${out}`)), 60_000);
    const onData = () => {
      const m = out.match(/http:\/\/localhost:(\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    };
    child.stdout.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`app exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    dataDir,
    output: () => out,
    stop: () => stopChild(child).finally(() => rmSync(dataDir, { recursive: true, force: true })),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 8000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
