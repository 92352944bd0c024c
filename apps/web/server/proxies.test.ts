// The built app behind reverse proxies, as operators run it (docs/decisions/0153): the client's
// address is the one the proxies appended (TRUST_PROXY hops), never what the client wrote, and a
// form post a proxy forwards with its upstream's name as Host is judged against PUBLIC_URL.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnApp as spawnLive } from "./spawn-app.test-support.js";

const PUBLIC_URL = "https://play.example.org";
/** nginx's default `proxy_set_header Host $proxy_host`: the upstream's name, not the site's. */
const UPSTREAM_HOST = "gravity_app:3000";

const dirs: string[] = [];
const running = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function spawnApp(extra: Record<string, string | undefined> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "gf-proxy-"));
  dirs.push(dataDir);
  return spawnLive({ DATABASE_URL: undefined, DATA_DIR: dataDir, ...extra }, running);
}

/** A request `send` makes: a form, when given, is posted URL-encoded. */
interface SendOptions {
  method?: string;
  path: string;
  headers?: http.OutgoingHttpHeaders;
  form?: Record<string, string>;
}

/**
 * One request with exactly these headers (fetch will not send a Host of our choosing).
 * @returns {Promise<{ status: number, headers: http.IncomingHttpHeaders, body: string }>}
 */
function send(
  port: number,
  { method = "GET", path: target, headers = {}, form }: SendOptions,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: target,
        headers: {
          ...(body === undefined
            ? {}
            : {
                "Content-Type": "application/x-www-form-urlencoded",
                "Content-Length": Buffer.byteLength(body),
              }),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("TRUST_PROXY", () => {
  it("refuses `true` at start, saying what to set", async () => {
    const app = spawnApp({ TRUST_PROXY: "true" });
    expect(
      await app.port.then(
        () => "started",
        () => "refused",
      ),
    ).toBe("refused");
    expect(await app.exited).toBe(1);
    expect(app.output().trim()).toBe(
      "Configuration error: TRUST_PROXY=true would believe any X-Forwarded-For a client writes, so every per-IP limit could be skipped: set TRUST_PROXY to the number of proxies in front of the app (TRUST_PROXY=1 behind one nginx or load balancer)",
    );
  }, 60_000);
});

describe("behind one proxy (TRUST_PROXY=1, PUBLIC_URL set)", () => {
  let port: number;
  beforeAll(async () => {
    port = await spawnApp({ TRUST_PROXY: "1", PUBLIC_URL }).port;
  }, 60_000);

  /** A request as nginx forwards it: the client's X-Forwarded-For with its peer appended. */
  const viaProxy = (clientIp: string, written: string | undefined, options: SendOptions) =>
    send(port, {
      ...options,
      headers: {
        Host: UPSTREAM_HOST,
        "X-Forwarded-Proto": "https",
        "X-Forwarded-For": written ? `${written}, ${clientIp}` : clientIp,
        ...options.headers,
      },
    });

  it("counts a client's per-IP limit by the address the proxy saw, whatever the client wrote", async () => {
    const forgot = (clientIp: string, written: string, i: number) =>
      viaProxy(clientIp, written, {
        method: "POST",
        path: "/forgot-password",
        headers: { Origin: PUBLIC_URL },
        form: { email: `nobody-${i}@example.com` },
      });
    // The per-IP limit of reset e-mail requests is 10 an hour; each request claims another address.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await forgot("198.51.100.7", `203.0.113.${i + 1}`, i)).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Another player behind the same proxy is not held up by it.
    expect((await forgot("198.51.100.8", "203.0.113.1", 99)).status).toBe(200);
  }, 60_000);

  it("judges a form post whose Host is the upstream's name against PUBLIC_URL, never a 500", async () => {
    const signup = (
      form: Record<string, string>,
      headers: http.OutgoingHttpHeaders = {},
      target = "/signup",
    ) =>
      viaProxy("198.51.100.20", undefined, {
        method: "POST",
        path: target,
        headers: { Origin: PUBLIC_URL, ...headers },
        form,
      });
    const page = await signup({
      username: "Proxied_Rider",
      email: "proxied@example.com",
      password: "fast-and-loose",
    });
    expect(page.status).toBe(302);
    expect(page.headers["set-cookie"]?.join(";")).toMatch(/gf_session=/);
    // The same through JavaScript (Remix's data request), refused by the form this time.
    const data = await signup({ username: "x", email: "bad", password: "" }, {}, "/signup.data");
    expect(data.status).toBe(400);
    // Another site is still refused, once, by the app.
    const foreign = await signup(
      { username: "Evil_Rider", email: "evil@example.com", password: "fast-and-loose" },
      { Origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatch(/did not come from this site/);
  }, 60_000);
});
