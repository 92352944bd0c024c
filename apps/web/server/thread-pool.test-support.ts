// Test support: libuv's thread pool held on purpose. Each blocked thread is an `open` of a named
// pipe nobody writes to, which waits in the pool until the test opens the other end, so a test
// decides exactly when the pool is full and when it is free (no timing involved).
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, open, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** libuv's pool size in this process (4 unless UV_THREADPOOL_SIZE says otherwise). */
export const THREAD_POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE) || 4;

/**
 * Takes every thread of the pool (`threads`, default all of them); `release()` gives them back
 * and resolves once every blocked call has returned.
 */
export function blockThreadPool(threads = THREAD_POOL_SIZE): { release(): Promise<void> } {
  const dir = mkdtempSync(path.join(tmpdir(), "gf-pool-"));
  const fifos = Array.from({ length: threads }, (_, i) => path.join(dir, `pipe-${i}`));
  for (const fifo of fifos) execFileSync("mkfifo", [fifo]);
  const opened = fifos.map(
    (fifo) =>
      new Promise<number>((resolve, reject) =>
        open(fifo, "r", (error, fd) => (error ? reject(error) : resolve(fd))),
      ),
  );
  return {
    async release() {
      // The reader is waiting in the pool, so opening the writing end returns at once.
      const writers = fifos.map((fifo) => openSync(fifo, "w"));
      for (const fd of await Promise.all(opened)) closeSync(fd);
      for (const fd of writers) closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
