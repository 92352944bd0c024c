import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb, listAudit } from "@game/db";
import type { Command } from "commander";
import { afterAll, describe, expect, it, vi } from "vitest";
import { currentActor } from "./context.js";
import { buildProgram, run } from "./program.js";

const bin = fileURLToPath(new URL("../bin/game-admin.js", import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), "gf-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The binary's environment: always the embedded database here, never a DATABASE_URL's server. */
function cliEnv(folder = dataDir): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: folder };
  delete env.DATABASE_URL;
  return env;
}

/** Runs the real built binary, as an admin would. */
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { env: cliEnv(), encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("game-admin", () => {
  it("prints help with exit 0", () => {
    const r = cli("--help");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: game-admin");
  });

  it("exits 2 on an unknown command, with the reason on stderr", () => {
    const r = cli("frobnicate");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command");
    expect(r.stdout).toBe("");
  });

  it("seeds idempotently", () => {
    const first = cli("db", "seed");
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Seeded 12 events and \d+ racers/);
    const again = cli("db", "seed");
    expect(again.stdout).toContain("Seeded 0 events and 0 racers");
  });

  it("audits the seed that wrote something, naming who ran it", async () => {
    const h = await createDb({ url: "", dataDir, migrate: false });
    try {
      const { rows } = await listAudit(h.db, { action: "db.seed" });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actor: currentActor().actor,
        target: "seed",
        detail: { eventsAdded: 12, racersFile: "racers.csv" },
      });
      expect((rows[0]!.detail as { racersAdded: number }).racersAdded).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
  });

  it("ends quietly, its work done, when the reader closes the pipe early (`| head`)", async () => {
    for (const args of [["--help"], ["events", "list"]]) {
      const child = spawn(process.execPath, [bin, ...args], { env: cliEnv() });
      // The reader is gone before the command writes a line.
      child.stdout.destroy();
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      const code = await new Promise<number | null>((done) => child.on("close", done));
      expect(stderr, args.join(" ")).toBe("");
      expect(code, args.join(" ")).toBe(0);
    }
  });

  it("never opens a folder that a live app holds, even when its socket does not answer", () => {
    const held = mkdtempSync(path.join(tmpdir(), "gf-cli-held-"));
    try {
      // This test process is alive: to the CLI it is an app serving the folder on a dead port.
      const info = { pid: process.pid, host: "127.0.0.1", port: 1, password: "x" };
      writeFileSync(path.join(held, "db-socket.json"), JSON.stringify(info));
      const r = spawnSync(process.execPath, [bin, "events", "list"], {
        env: cliEnv(held),
        encoding: "utf8",
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/^error: the app holding .* did not answer .*db-socket\.json\n$/);
      expect(existsSync(path.join(held, "pgdata"))).toBe(false);
    } finally {
      rmSync(held, { recursive: true, force: true });
    }
  });

  it("says how to build it, in one line with exit 1, when it is not built", () => {
    const copy = mkdtempSync(path.join(tmpdir(), "gf-cli-unbuilt-"));
    try {
      mkdirSync(path.join(copy, "bin"));
      const copied = path.join(copy, "bin", "game-admin.js");
      copyFileSync(bin, copied);
      const notBuilt = "game-admin is not built yet: run `npm run build` (or `npm start`) first.\n";
      const launch = () => spawnSync(process.execPath, [copied, "--help"], { encoding: "utf8" });
      // No dist/ at all: a fresh clone after `npm ci`.
      expect(launch()).toMatchObject({ status: 1, stdout: "", stderr: notBuilt });
      // The CLI built, a workspace package it imports not.
      mkdirSync(path.join(copy, "dist"));
      writeFileSync(path.join(copy, "dist", "index.js"), 'import "../db/dist/index.js";\n');
      expect(launch()).toMatchObject({ status: 1, stdout: "", stderr: notBuilt });
      // Any other failure is not hidden behind that message.
      writeFileSync(path.join(copy, "dist", "index.js"), 'throw new Error("boom");\n');
      const other = launch();
      expect(other.status).toBe(1);
      expect(other.stderr).toContain("Error: boom");
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("is built by `npm start`, in the same turbo run as the web app", () => {
    const root = fileURLToPath(new URL("../../package.json", import.meta.url));
    const start: string = JSON.parse(readFileSync(root, "utf8")).scripts.start;
    const build = start.split("&&")[0]!;
    expect(build).toMatch(/^turbo run build /);
    expect(build.split(/\s+/)).toEqual(
      expect.arrayContaining(["--filter=@game/web...", "--filter=@game/cli..."]),
    );
  });

  it("fails with exit 1 and one line when the database is unreachable", () => {
    const r = cli("--database-url", "postgres://nobody@127.0.0.1:1/none", "db", "migrate");
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: /);
  });
});

describe("commands", () => {
  function leaves(cmd: Command, trail: string[] = []): [string, Command][] {
    return cmd.commands
      .filter((sub) => sub.name() !== "help")
      .flatMap((sub) =>
        sub.commands.length > 0
          ? leaves(sub, [...trail, sub.name()])
          : [[[...trail, sub.name()].join(" "), sub] as [string, Command]],
      );
  }

  it("has every admin command, each with a description and an example in --help", () => {
    const all = leaves(buildProgram());
    expect(all.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "racers import",
        "racers list",
        "racers portraits",
        "events list",
        "events status",
        "events schedule",
        "users list",
        "users grant-admin",
        "users block",
        "users accept",
        "partners add",
        "partners list",
        "db migrate",
        "db seed",
        "results import",
        "results finalize",
        "tokens create",
        "tokens revoke",
        "tokens list",
      ]),
    );
    for (const [name, cmd] of all) {
      let out = "";
      cmd.configureOutput({ writeOut: (s) => (out += s) });
      cmd.outputHelp();
      expect(cmd.description(), name).not.toBe("");
      // The example block shows the command itself, possibly after a step it needs first
      // (`partners delete` is shown after the `partners disable` it requires).
      const [, block] = out.split("\nExample:\n");
      expect(block, name).toBeDefined();
      expect(
        block!
          .split("\n")
          .some((l) => l === `  $ game-admin ${name}` || l.startsWith(`  $ game-admin ${name} `)),
        name,
      ).toBe(true);
    }
  });

  it("ends every group's --help with examples of its own sub-commands", () => {
    const groups = buildProgram().commands.filter((c) => c.commands.length > 0);
    expect(groups.map((g) => g.name())).toEqual(
      expect.arrayContaining(["racers", "results", "scores", "events", "users", "partners", "db"]),
    );
    for (const group of groups) {
      let out = "";
      group.configureOutput({ writeOut: (s) => (out += s) });
      group.outputHelp();
      const name = group.name();
      const [, block] = out.split("\nExamples:\n");
      expect(block, name).toBeDefined();
      const examples = block!.trimEnd().split("\n");
      expect(examples.length, name).toBeGreaterThan(0);
      const subs = group.commands.map((c) => c.name());
      for (const example of examples) {
        const [dollar, bin, cmd, sub] = example.trim().split(/\s+/);
        expect([dollar, bin, cmd], example).toEqual(["$", "game-admin", name]);
        expect(subs, example).toContain(sub);
      }
    }
  });

  it("lists every registered group under a heading, and each group's sub-commands, in --help", () => {
    const program = buildProgram();
    let out = "";
    program.configureOutput({ writeOut: (s) => (out += s) });
    program.outputHelp();
    const groups = program.commands.filter((c) => c.name() !== "help");
    // The season and hardening work's groups are there once they are registered.
    expect(groups.map((g) => g.name())).toEqual(
      expect.arrayContaining(["racers", "results", "season", "users", "partners", "outbox"]),
    );
    for (const group of groups) {
      expect(out, group.name()).toMatch(new RegExp(`\\n {2}${group.name()} +\\S`));
      expect(group.helpGroup(), group.name()).toMatch(/:$/);
    }
    // Commander prints `addHelpText` only with the full help: ask the binary for it.
    const r = cli("--help");
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const [, index] = r.stdout.split(
      "\nAll commands (game-admin <group> <command> --help for details):\n",
    );
    expect(index).toBeDefined();
    for (const group of groups) {
      const subs = group.commands.map((c) => c.name()).filter((n) => n !== "help");
      const line = index!.split("\n").find((l) => l.trim().split(/\s+/)[0] === group.name());
      expect(line, group.name()).toBeDefined();
      expect(
        line!
          .trim()
          .replace(/^\S+\s+/, "")
          .split(", "),
        group.name(),
      ).toEqual(subs);
    }
  });

  it("prints its package version on --version, and nothing else", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    for (const flag of ["--version", "-V"]) {
      const r = cli(flag);
      expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
    }
  });

  it("runs quietly from `npm run cli`: the root script builds only when sources changed", () => {
    const rootPkg = fileURLToPath(new URL("../../package.json", import.meta.url));
    const script: string = JSON.parse(readFileSync(rootPkg, "utf8")).scripts.cli;
    expect(script).toBe("node scripts/cli.mjs");
    const runner = fileURLToPath(new URL("../../scripts/cli.mjs", import.meta.url));
    const r = spawnSync(process.execPath, [runner, "--version"], {
      env: cliEnv(),
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  }, 180_000);

  it("shows the group examples on `game-admin <group> --help`", () => {
    const r = cli("partners", "--help");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /\nExamples:\n {2}\$ game-admin partners add .*\n {2}\$ game-admin partners list\n$/,
    );
  });

  it("treats bad arguments and options as wrong usage (exit 2)", async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((s) => {
      errors.push(String(s));
      return true;
    });
    try {
      expect(await run(["racers", "import", "x.csv", "--frobnicate"])).toBe(2);
      expect(await run(["racers"])).toBe(2);
      expect(await run(["events", "status", "0", "open"])).toBe(2);
      expect(await run(["events", "status", "5", "paused"])).toBe(2);
      expect(await run(["events", "schedule", "5", "2027-04-18T16:00"])).toBe(2);
      expect(await run(["partners", "add", "Only a name"])).toBe(2);
      expect(await run(["users", "block"])).toBe(2);
      expect(await run(["tokens", "create"])).toBe(2);
      expect(await run(["results", "finalize", "0"])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(errors.join("")).toContain("give an ISO time with its zone");
    expect(errors.join("")).toContain("use open, close (closed) or archive (archived).");
  });
});
