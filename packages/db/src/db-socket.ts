/**
 * Sharing the embedded database between the running app and the admin CLI.
 *
 * PGlite is one process and one session per data folder, and nothing stops a second process from
 * opening the same folder (which would corrupt it). So the app serves its PGlite on a loopback
 * port and writes `<dataDir>/db-socket.json` (port, pid, password; mode 0600); the CLI finds that
 * file and connects with the postgres driver instead of opening the folder. Once the app listens it
 * adds its public address (`publicUrl`), which the CLI needs for the links it mails.
 *
 * The socket clients and the app share PGlite's single session, so a client's transaction must
 * never interleave with the app's queries (the app would run inside the client's transaction, or
 * a client's ROLLBACK would undo the app's writes). Each client exchange therefore holds PGlite's
 * transaction lock (the one the app's own `query()` and `transaction()` take) from its first
 * message until the session is idle again (ReadyForQuery with status "I"), and messages of other
 * clients wait their turn. A client that goes away mid-transaction is rolled back; one that stalls
 * while holding the lock is disconnected after `idleMs`.
 *
 * Session settings are each client's own: when a client gives the lock back, the settings it
 * changed (`SET search_path`, `statement_timeout`, `SET ROLE`: what pg_dump does first) are put
 * back as the app had them, and given to that client again before its next message. So no client
 * setting ever reaches the app's queries or another client's, and a client that leaves takes its
 * settings with it.
 *
 * A client may also ask for a backup (the query `GAME_ADMIN_BACKUP`): the app, which holds the
 * database, copies it between two transactions and answers it as rows of base64 text
 * (docs/decisions/0163-backup-and-restore.md).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketHandler } from "@electric-sql/pglite-socket";
import { BACKUP_QUERY, dumpEmbedded } from "./backup.js";
import { isHolderAlive, readDataLock } from "./data-dir-lock.js";

export const DB_SOCKET_FILE = "db-socket.json";

export interface DbSocketInfo {
  pid: number;
  host: string;
  port: number;
  password: string;
  /** The address players use (PUBLIC_URL, or http://localhost:PORT); set once the app listens. */
  publicUrl?: string;
}

export function dbSocketFile(dataDir: string): string {
  return path.join(dataDir, DB_SOCKET_FILE);
}

/** The socket file's content, or null when it is missing or not ours. */
export function readDbSocketInfo(dataDir: string): DbSocketInfo | null {
  try {
    const raw = JSON.parse(readFileSync(dbSocketFile(dataDir), "utf8")) as Partial<DbSocketInfo>;
    if (
      Number.isSafeInteger(raw.pid) &&
      Number.isSafeInteger(raw.port) &&
      typeof raw.host === "string" &&
      typeof raw.password === "string"
    ) {
      const info = raw as DbSocketInfo;
      if (info.publicUrl !== undefined && !isHttpUrl(info.publicUrl)) delete info.publicUrl;
      return info;
    }
    return null;
  } catch {
    return null;
  }
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** Whether a process exists (EPERM: it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The socket file of the live app holding `dataDir`, or null when no live app holds it (no socket
 * file, an unreadable one, or a stale one whose process is gone).
 */
export function runningAppInfo(
  dataDir: string,
  alive: (pid: number) => boolean = isProcessAlive,
): DbSocketInfo | null {
  if (dataDir === "memory") return null;
  const info = readDbSocketInfo(dataDir);
  if (!info || !alive(info.pid)) return null;
  // The app serving the socket holds the folder's lock (docs/decisions/0070). A lock naming
  // another process, or a dead one, means the file was left by a crash and its PID since reused.
  const holder = readDataLock(dataDir);
  if (holder && (holder.pid !== info.pid || !isHolderAlive(holder))) return null;
  return info;
}

/**
 * The PostgreSQL URL under which a running app serves the embedded database of `dataDir`, or null
 * when no live app holds it: then the folder can be opened directly.
 */
export function connectionForDataDir(
  dataDir: string,
  alive: (pid: number) => boolean = isProcessAlive,
): string | null {
  const info = runningAppInfo(dataDir, alive);
  if (!info) return null;
  const password = encodeURIComponent(info.password);
  // prepare=false: named statements would pile up in the session the app shares.
  return `postgres://postgres:${password}@${info.host}:${info.port}/postgres?prepare=false`;
}

/**
 * The public address the live app holding `dataDir` published, or null (no app, or one that is
 * still starting).
 */
export function publicUrlForDataDir(
  dataDir: string,
  alive: (pid: number) => boolean = isProcessAlive,
): string | null {
  return runningAppInfo(dataDir, alive)?.publicUrl ?? null;
}

// --- serving ------------------------------------------------------------------------------------

const PROTOCOL_3 = 196608;
const TERMINATE = 0x58; // "X"
const PASSWORD = 0x70; // "p"
const READY = 0x5a; // "Z"
const IDLE = 0x49; // "I"
const QUERY = 0x51; // "Q"

/** AuthenticationCleartextPassword: asks the client for the password from the socket file. */
const AUTH_CLEARTEXT = Uint8Array.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]);
/** Sync: ends an extended-protocol exchange a client left half-way. */
const SYNC = Uint8Array.from([0x53, 0, 0, 0, 4]);

function simpleQuery(sqlText: string): Uint8Array {
  const body = Buffer.from(`${sqlText}\0`, "utf8");
  const out = Buffer.alloc(5 + body.length);
  out.write("Q", 0, "latin1");
  out.writeInt32BE(4 + body.length, 1);
  body.copy(out, 5);
  return out;
}

/** The body of the first backend message of `type` in `reply`, or null. */
function messageOf(reply: Buffer, type: number): Buffer | null {
  for (let at = 0; at + 5 <= reply.length; ) {
    const length = reply.readInt32BE(at + 1);
    if (reply[at] === type) return reply.subarray(at + 5, at + 1 + length);
    at += 1 + length;
  }
  return null;
}

/** The first column of the first DataRow in `reply` (text), or null. */
function firstField(reply: Buffer): string | null {
  const row = messageOf(reply, 0x44); // "D"
  if (!row || row.readInt16BE(0) < 1) return null;
  const size = row.readInt32BE(2);
  return size < 0 ? null : row.subarray(6, 6 + size).toString("utf8");
}

/** The session's own settings (those set by SET or set_config), as one JSON object. */
const SESSION_SETTINGS = simpleQuery(
  // The role and session user are not listed in pg_settings: asked for by name.
  `select (coalesce(jsonb_object_agg(name, setting) filter (where source = 'session'), '{}')
     || jsonb_build_object('session_authorization', current_setting('session_authorization'),
                           'role', current_setting('role')))::text
   from pg_catalog.pg_settings`,
);

type Settings = Record<string, string>;

/** SQL setting `to` over `from` (session settings): RESET what `to` lacks, set_config the rest. */
function settingsScript(from: Settings, to: Settings): string | null {
  const quote = (v: string) => `'${v.replaceAll("'", "''")}'`;
  const parts: string[] = [];
  for (const name of Object.keys(from)) {
    // A setting's name is an identifier (letters, digits, "_" and "." for extensions').
    if (!(name in to)) parts.push(`reset ${name.replace(/[^a-z0-9_.]/gi, "")}`);
  }
  const sets = Object.entries(to)
    .filter(([name, value]) => from[name] !== value)
    .map(([name, value]) => `set_config(${quote(name)}, ${quote(value)}, false)`);
  if (sets.length > 0) parts.push(`select ${sets.join(", ")}`);
  return parts.length > 0 ? `${parts.join("; ")};` : null;
}

function errorResponse(code: string, message: string, severity = "FATAL"): Uint8Array {
  const fields = Buffer.from(`S${severity}\0V${severity}\0C${code}\0M${message}\0\0`, "utf8");
  const out = Buffer.alloc(5 + fields.length);
  out.write("E", 0, "latin1");
  out.writeInt32BE(4 + fields.length, 1);
  fields.copy(out, 5);
  return out;
}

/** A backend message of `type` with `body`. */
function backendMessage(type: string, body: Uint8Array = new Uint8Array(0)): Buffer {
  const out = Buffer.alloc(5 + body.length);
  out.write(type, 0, "latin1");
  out.writeInt32BE(4 + body.length, 1);
  out.set(body, 5);
  return out;
}

/** RowDescription of a backup's rows: one text column, `chunk`. */
const BACKUP_ROWS = (() => {
  const name = Buffer.from("chunk\0");
  const field = Buffer.alloc(18);
  field.writeInt32BE(0, 0); // no table
  field.writeInt16BE(0, 4); // no column of one
  field.writeInt32BE(25, 6); // text
  field.writeInt16BE(-1, 10); // variable size
  field.writeInt32BE(-1, 12); // no type modifier
  field.writeInt16BE(0, 16); // text format
  return backendMessage("T", Buffer.concat([Buffer.from([0, 1]), name, field]));
})();
const READY_IDLE = backendMessage("Z", Uint8Array.from([IDLE]));
/** Bytes of the backup per row (a multiple of 3: each row is whole base64). */
const BACKUP_CHUNK = 3 * 1024 * 1024;

/** A DataRow of one text value. */
function dataRow(text: Buffer): Buffer {
  const body = Buffer.alloc(6 + text.length);
  body.writeInt16BE(1, 0);
  body.writeInt32BE(text.length, 2);
  text.copy(body, 6);
  return backendMessage("D", body);
}

function isBackupRequest(message: Uint8Array): boolean {
  if (message[0] !== QUERY) return false;
  const text = Buffer.from(message.subarray(5, message.length - 1)).toString("utf8");
  return text.trim().replace(/;$/, "").trim() === BACKUP_QUERY;
}

function isStartup(message: Uint8Array): boolean {
  return message.length >= 8 && Buffer.from(message).readInt32BE(4) === PROTOCOL_3;
}

function digest(value: Uint8Array | string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** PGlite's transaction lock, held across several messages of one client. */
class TransactionGate {
  #release: (() => void) | null = null;
  #entering: Promise<void> | null = null;

  constructor(private readonly pglite: PGlite) {}

  get held(): boolean {
    return this.#release !== null;
  }

  acquire(): Promise<void> {
    if (this.#release) return Promise.resolve();
    this.#entering ??= new Promise<void>((entered, failed) => {
      this.pglite
        ._runExclusiveTransaction(
          () =>
            new Promise<void>((release) => {
              this.#release = release;
              this.#entering = null;
              entered();
            }),
        )
        .catch(failed);
    });
    return this.#entering;
  }

  release(): void {
    const release = this.#release;
    this.#release = null;
    release?.();
  }
}

type Stage = "startup" | "password" | "ready" | "rejected";

interface Job {
  handlerId: number;
  /** A protocol message, or null: the client is gone, clean up after it. */
  message: Uint8Array | null;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: Error) => void;
}

/**
 * The queue `PGLiteSocketHandler` feeds: authenticates each client, then runs its messages on
 * PGlite one at a time under the transaction gate (see the file comment).
 */
class SharedSession {
  #jobs: Job[] = [];
  #running = false;
  /** The client holding the gate: inside a transaction or an unfinished exchange. */
  #owner: number | null = null;
  #ownerSeen = 0;
  #stages = new Map<number, { stage: Stage; startup?: Uint8Array }>();
  /** The app's own session settings, taken before any client ran. */
  #baseline: Settings | null = null;
  /** Each client's session settings, kept while another party has the session. */
  #clientSettings = new Map<number, Settings>();
  readonly #gate: TransactionGate;
  readonly #password: Buffer;

  constructor(
    private readonly pglite: PGlite,
    password: string,
    private readonly disconnect: (handlerId: number) => void,
  ) {
    this.#gate = new TransactionGate(pglite);
    this.#password = digest(password);
  }

  /** The client that has held the gate without a message for longer than `ms`, if any. */
  stalledOwner(ms: number, now = Date.now()): number | null {
    return this.#owner !== null && now - this.#ownerSeen > ms ? this.#owner : null;
  }

  // The three methods PGLiteSocketHandler calls.
  enqueue(handlerId: number, message: Uint8Array, onData: (d: Uint8Array) => void) {
    return new Promise<number>((resolve, reject) => {
      this.#jobs.push({ handlerId, message, onData, resolve, reject });
      void this.#pump();
    });
  }

  clearQueueForHandler(handlerId: number): void {
    this.#jobs = this.#jobs.filter((job) => {
      if (job.handlerId !== handlerId || job.message === null) return true;
      job.reject(new Error("client disconnected"));
      return false;
    });
  }

  clearTransactionIfNeeded(handlerId: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#jobs.push({
        handlerId,
        message: null,
        onData: () => {},
        resolve: () => resolve(),
        reject,
      });
      void this.#pump();
    });
  }

  /** Ends whatever a client left open and gives the gate back (server shutdown). */
  async close(): Promise<void> {
    if (this.#owner !== null) await this.#abandon();
    this.#gate.release();
  }

  async #pump(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      for (;;) {
        // While a client holds the gate only its own messages may run.
        const i =
          this.#owner === null ? 0 : this.#jobs.findIndex((j) => j.handlerId === this.#owner);
        if (i < 0 || i >= this.#jobs.length) break;
        const job = this.#jobs.splice(i, 1)[0]!;
        try {
          job.resolve(await this.#run(job));
        } catch (error) {
          job.reject(error as Error);
        }
      }
    } finally {
      this.#running = false;
    }
  }

  async #run(job: Job): Promise<number> {
    const { handlerId, message, onData } = job;
    if (message === null) {
      if (this.#owner === handlerId) await this.#abandon();
      this.#stages.delete(handlerId);
      this.#clientSettings.delete(handlerId);
      return 0;
    }
    const state = this.#stages.get(handlerId) ?? { stage: "startup" as Stage };
    this.#stages.set(handlerId, state);
    switch (state.stage) {
      case "startup":
        if (!isStartup(message)) return this.#refuse(handlerId, onData, "08P01", "bad startup");
        state.startup = message;
        state.stage = "password";
        onData(AUTH_CLEARTEXT);
        return AUTH_CLEARTEXT.length;
      case "password": {
        const given = message[0] === PASSWORD ? message.subarray(5, message.length - 1) : null;
        if (!given || !timingSafeEqual(digest(given), this.#password)) {
          return this.#refuse(handlerId, onData, "28P01", "password authentication failed");
        }
        state.stage = "ready";
        return this.#forward(handlerId, state.startup!, onData);
      }
      case "ready":
        // Terminate would end PGlite's only session, which the app is still using.
        if (message[0] === TERMINATE) return 0;
        // Inside a client's own transaction it is not ours: PGlite answers the syntax error.
        if (this.#owner === null && isBackupRequest(message)) return this.#sendBackup(onData);
        return this.#forward(handlerId, message, onData);
      case "rejected":
        return 0;
    }
  }

  #refuse(handlerId: number, onData: (d: Uint8Array) => void, code: string, text: string) {
    const state = this.#stages.get(handlerId);
    if (state) state.stage = "rejected";
    const error = errorResponse(code, text);
    onData(error);
    setImmediate(() => this.disconnect(handlerId));
    return error.length;
  }

  /**
   * Copies the database (between the app's transactions) and sends the copy as rows of base64
   * text, a result any PostgreSQL client reads. Not as a COPY stream: postgres-js can leave its
   * socket paused when the stream's end arrives with its last chunk, and the CLI then never exits.
   */
  async #sendBackup(onData: (d: Uint8Array) => void): Promise<number> {
    let bytes = 0;
    const send = (data: Uint8Array) => {
      onData(data);
      bytes += data.length;
    };
    let tarball: Buffer;
    try {
      tarball = await dumpEmbedded(this.pglite);
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      send(errorResponse("58000", `backup failed: ${reason}`, "ERROR"));
      send(READY_IDLE);
      return bytes;
    }
    send(BACKUP_ROWS);
    let rows = 0;
    for (let at = 0; at < tarball.length; at += BACKUP_CHUNK, rows++) {
      const chunk = tarball.subarray(at, at + BACKUP_CHUNK);
      send(dataRow(Buffer.from(chunk.toString("base64"), "latin1")));
    }
    send(backendMessage("C", Buffer.from(`SELECT ${rows}\0`)));
    send(READY_IDLE);
    return bytes;
  }

  async #forward(handlerId: number, message: Uint8Array, onData: (d: Uint8Array) => void) {
    await this.#gate.acquire();
    if (this.#owner !== handlerId) {
      // The session comes from the app (or another client): give this client its settings.
      this.#owner = handlerId;
      await this.pglite.runExclusive(async () => {
        const baseline = await this.#ownSettings();
        const mine = this.#clientSettings.get(handlerId);
        const script = mine ? settingsScript(baseline, mine) : null;
        if (script) await this.#exec(script);
      });
    }
    this.#owner = handlerId;
    this.#ownerSeen = Date.now();
    let bytes = 0;
    // The last 6 bytes sent: a final ReadyForQuery ("Z", length 5, status) means the exchange is
    // over, and status "I" that no transaction is open. Mid-exchange replies never end in one.
    const tail = new Uint8Array(6);
    try {
      await this.pglite.runExclusive(() =>
        this.pglite.execProtocolRawStream(message, {
          onRawData: (data) => {
            bytes += data.length;
            if (data.length >= 6) tail.set(data.subarray(data.length - 6));
            else {
              tail.copyWithin(0, data.length);
              tail.set(data, 6 - data.length);
            }
            onData(data);
          },
        }),
      );
    } finally {
      const idle = tail[0] === READY && tail[4] === 5 && tail[5] === IDLE;
      if (idle && !this.pglite.isInTransaction()) {
        try {
          await this.#giveBackSettings(handlerId);
        } finally {
          this.#owner = null;
          this.#gate.release();
        }
      }
    }
    return bytes;
  }

  /** The owner is gone or stalled: finish its exchange, roll back, free the gate. */
  async #abandon(): Promise<void> {
    const discard = { onRawData: () => {} };
    const owner = this.#owner;
    try {
      await this.pglite.runExclusive(async () => {
        await this.pglite.execProtocolRawStream(SYNC, discard);
        if (this.pglite.isInTransaction()) {
          await this.pglite.execProtocolRawStream(simpleQuery("ROLLBACK"), discard);
        }
      });
      if (owner !== null) await this.#giveBackSettings(owner);
    } finally {
      this.#owner = null;
      this.#gate.release();
    }
  }

  /** The session's settings now (its SET ones), read inside runExclusive. */
  async #ownSettings(): Promise<Settings> {
    const reply = await this.#exec(SESSION_SETTINGS);
    const settings = JSON.parse(firstField(reply) ?? "{}") as Settings;
    this.#baseline ??= settings;
    return settings;
  }

  /**
   * Runs a simple query on the raw stream, as the clients' messages run (PGlite's parsed
   * `execProtocol` would hand its reply to the socket client waiting next); throws on an error.
   */
  async #exec(message: Uint8Array | string): Promise<Buffer> {
    const chunks: Uint8Array[] = [];
    await this.pglite.execProtocolRawStream(
      typeof message === "string" ? simpleQuery(message) : message,
      { onRawData: (data) => chunks.push(data.slice()) },
    );
    const reply = Buffer.concat(chunks);
    const error = messageOf(reply, 0x45); // "E"
    if (error) throw new Error(`socket session: ${error.toString("utf8").replace(/\0/g, " ")}`);
    return reply;
  }

  /**
   * The client gives the session back: keep its settings for its next message and put the
   * app's back (before the app, or any other client, runs a query).
   */
  async #giveBackSettings(handlerId: number): Promise<void> {
    await this.pglite.runExclusive(async () => {
      const baseline = this.#baseline;
      if (baseline === null) return;
      try {
        const now = await this.#ownSettings();
        this.#clientSettings.set(handlerId, now);
        const script = settingsScript(now, baseline);
        if (script) await this.#exec(script);
      } catch {
        // The client's settings stop even this (a statement_timeout of 1 ms, a role without
        // rights on pg_settings): put the app's back bluntly; the client loses its own.
        this.#clientSettings.delete(handlerId);
        await this.#exec(`reset all; reset role; ${settingsScript({}, baseline) ?? ""}`);
      }
    });
  }
}

export interface ServeDbSocketOptions {
  /** Loopback by default: the socket is for admin tools on the same machine. */
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** A client holding the database this long without a word is disconnected (default 30 s). */
  idleMs?: number;
  maxConnections?: number;
}

export interface DbSocketServer {
  host: string;
  port: number;
  /** The URL clients use (contains the password). */
  url: string;
  /** Adds the app's public address to the socket file (once the app knows its port). */
  publish(details: { publicUrl: string }): void;
  close(): Promise<void>;
}

/**
 * Serves `pglite` (the app's open embedded database in `dataDir`) to admin tools and writes the
 * socket file they look for. `close()` stops serving and removes the file.
 */
export async function serveDbSocket(
  pglite: PGlite,
  dataDir: string,
  opts: ServeDbSocketOptions = {},
): Promise<DbSocketServer> {
  const host = opts.host ?? "127.0.0.1";
  const idleMs = opts.idleMs ?? 30_000;
  const password = randomBytes(24).toString("base64url");
  const sockets = new Map<number, net.Socket>();
  const session = new SharedSession(pglite, password, (id) => sockets.get(id)?.destroy());

  const server = net.createServer((socket) => {
    const handler = new PGLiteSocketHandler({
      queryQueue: session as never,
      closeOnDetach: true,
    });
    sockets.set(handler.handlerId, socket);
    socket.once("close", () => sockets.delete(handler.handlerId));
    handler.attach(socket).catch(() => socket.destroy());
  });
  server.maxConnections = opts.maxConnections ?? 8;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as net.AddressInfo).port;

  const watchdog = setInterval(
    () => {
      const stalled = session.stalledOwner(idleMs);
      if (stalled !== null) sockets.get(stalled)?.destroy();
    },
    Math.min(5000, idleMs),
  );
  watchdog.unref();

  const file = dbSocketFile(dataDir);
  const info: DbSocketInfo = { pid: process.pid, host, port, password };
  // Atomic: a reader never sees half a file.
  const write = () => {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(info)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  };
  write();

  let closed = false;
  return {
    host,
    port,
    url: `postgres://postgres:${password}@${host}:${port}/postgres?prepare=false`,
    publish({ publicUrl }) {
      if (!isHttpUrl(publicUrl)) throw new Error(`not an http(s) address: ${publicUrl}`);
      if (closed) return;
      info.publicUrl = publicUrl;
      write();
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(watchdog);
      // Only remove the file if it is still ours (another app may have taken the folder over).
      if (readDbSocketInfo(dataDir)?.pid === process.pid) rmSync(file, { force: true });
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets.values()) socket.destroy();
      await stopped;
      await session.close();
    },
  };
}
