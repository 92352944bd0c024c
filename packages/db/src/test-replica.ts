/**
 * A real streaming replica of the test PostgreSQL server, for the read-replica tests: a base
 * backup (`pg_basebackup -R`) into a temporary folder, started on a free port with the server's
 * own binaries, removed again by `stop()`. It needs `wal_level` replica (or logical), free WAL
 * senders and a `replication` entry for the client's address in pg_hba.conf (CI sets them up).
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";

const run = promisify(execFile);

export interface TestReplica {
  /** `database` on the replica (same user as the primary URL). */
  url(database: string): string;
  port: number;
  /** Waits until the replica has replayed everything the primary had written when called. */
  catchUp(timeoutMs?: number): Promise<void>;
  /** Stops the replica and deletes its folder. */
  stop(): Promise<void>;
}

/** Settings a hot standby must have at least as high as its primary. */
const AT_LEAST_PRIMARY = [
  "max_connections",
  "max_worker_processes",
  "max_wal_senders",
  "max_prepared_transactions",
  "max_locks_per_transaction",
];

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startTestReplica(primaryUrl: string): Promise<TestReplica> {
  const primary = new URL(primaryUrl);
  const user = decodeURIComponent(primary.username || "postgres");
  const admin = postgres(primaryUrl, { max: 1, onnotice: () => {} });
  let settings: string[];
  let bin: string;
  try {
    const [version] =
      await admin`select current_setting('server_version_num')::int / 10000 as major`;
    bin = `/usr/lib/postgresql/${version!.major}/bin`;
    settings = [];
    for (const name of AT_LEAST_PRIMARY) {
      const [row] = await admin`select current_setting(${name}) as value`;
      settings.push(`${name} = ${row!.value}`);
    }
  } finally {
    await admin.end({ timeout: 5 });
  }

  const dir = mkdtempSync(path.join(tmpdir(), "gf-replica-"));
  const data = path.join(dir, "data");
  const port = await freePort();
  // PostgreSQL refuses to run as root: the server's own OS user runs the copy then.
  const asRoot = process.getuid?.() === 0;
  const asServerUser = (cmd: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", cmd, ...args]) : run(cmd, args);
  let started = false;
  const stop = async () => {
    if (started) {
      started = false;
      await asServerUser(`${bin}/pg_ctl`, ["-D", data, "-m", "immediate", "-w", "stop"]).catch(
        () => {},
      );
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run(`${bin}/pg_basebackup`, [
      "-h",
      primary.hostname,
      "-p",
      primary.port || "5432",
      "-U",
      user,
      "-D",
      data,
      "-R", // standby.signal and primary_conninfo: it streams from the primary once started
      "-X",
      "stream",
      "-c",
      "fast",
    ]);
    // Debian keeps the configuration outside the data folder: the copy gets its own.
    writeFileSync(
      path.join(data, "postgresql.conf"),
      [
        "listen_addresses = '127.0.0.1'",
        `port = ${port}`,
        `unix_socket_directories = '${dir}'`,
        "hot_standby = on",
        "fsync = off",
        "shared_buffers = 32MB",
        ...settings,
        "",
      ].join("\n"),
    );
    writeFileSync(
      path.join(data, "pg_hba.conf"),
      "local all all trust\nhost all all 127.0.0.1/32 trust\n",
    );
    writeFileSync(path.join(data, "pg_ident.conf"), "");
    if (asRoot) await run("chown", ["-R", "postgres:postgres", dir]);
    chmodSync(data, 0o700);
    await asServerUser(`${bin}/pg_ctl`, [
      "-D",
      data,
      "-l",
      path.join(dir, "server.log"),
      "-w",
      "-t",
      "30",
      "start",
    ]);
    started = true;
  } catch (error) {
    await stop();
    const detail = error instanceof Error ? error.message.split("\n").slice(0, 3).join(" ") : "";
    throw new Error(`Could not start a replica of ${primary.host}: ${detail}`);
  }

  const url = (database: string) => {
    const u = new URL(primaryUrl);
    u.hostname = "127.0.0.1";
    u.port = String(port);
    u.pathname = `/${database}`;
    return u.toString();
  };

  return {
    url,
    port,
    stop,
    async catchUp(timeoutMs = 60_000) {
      const p = postgres(primaryUrl, { max: 1, onnotice: () => {} });
      const r = postgres(url("postgres"), { max: 1, onnotice: () => {} });
      try {
        const [{ lsn }] = (await p`select pg_current_wal_lsn()::text as lsn`) as unknown as [
          { lsn: string },
        ];
        const until = Date.now() + timeoutMs;
        for (;;) {
          const [row] =
            await r`select coalesce(pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn, false) as done`;
          if (row?.done) return;
          if (Date.now() > until) throw new Error(`The replica did not reach ${lsn} in time.`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await Promise.all([p.end({ timeout: 5 }), r.end({ timeout: 5 })]);
      }
    },
  };
}
