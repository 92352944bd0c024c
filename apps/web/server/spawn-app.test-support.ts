// Test support for the server's end-to-end tests: the built app started as `npm start` runs it
// (`node build/server.js`), its output kept, and a request left in flight on purpose.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import net from "node:net";
import { fileURLToPath } from "node:url";

export const webRoot = fileURLToPath(new URL("..", import.meta.url));

/**
 * Spawns `node build/server.js` with `env` (added to the test's own environment, `undefined` removes a
 * variable). `port` resolves once the start line names it and rejects if the app exits or takes
 * over 60 s; `exited` resolves with the exit code (or signal). Each child is added to `running`
 * until it exits, for the test's afterAll to kill.
 */
export function spawnApp(
  env: Record<string, string | undefined>,
  running: Set<ChildProcessWithoutNullStreams>,
): {
  child: ChildProcessWithoutNullStreams;
  port: Promise<number>;
  exited: Promise<number | NodeJS.Signals | null>;
  output: () => string;
} {
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
  };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  const child = spawn(process.execPath, ["build/server.js"], { cwd: webRoot, env: merged });
  running.add(child);
  let out = "";
  const collect = (d: Buffer) => {
    out += d;
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve(code ?? signal);
    }),
  );
  const port = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in 60 s:\n${out}`)), 60_000);
    child.stdout.on("data", () => {
      // The start line, not a warning that names the configured port.
      const m = out.match(/Gravity Fantasy on http:\/\/localhost:(\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${out}`));
    });
  });
  port.catch(() => {});
  return { child, port, exited, output: () => out };
}

/**
 * A sign-in whose body is still arriving: the headers and the first bytes are sent now,
 * `finish()` sends the rest. `ended` resolves when the server closes the connection;
 * `response()` is what it answered.
 */
export async function halfSentLogin(port: number) {
  const body = "email=nobody%40example.com&password=not-the-password";
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let response = "";
  socket.on("data", (d) => {
    response += d;
  });
  const ended = new Promise((resolve) => socket.once("close", resolve));
  socket.write(
    [
      "POST /login HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      `Origin: http://127.0.0.1:${port}`,
      "Content-Type: application/x-www-form-urlencoded",
      `Content-Length: ${body.length}`,
      "",
      body.slice(0, 10),
    ].join("\r\n"),
  );
  return {
    socket,
    ended,
    finish: () => socket.write(body.slice(10)),
    response: () => response,
  };
}
