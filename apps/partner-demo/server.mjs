// A stand-in partner site for the embed demo and tests: static pages on their own origin that
// load the game's script from the game's origin. Pages may say {{APP}} (the game's URL) and
// {{KEY}} (the partner's publishable key); they are filled in when served.
//
//   node apps/partner-demo/server.mjs --app http://localhost:3000 --key pk_... [--port 4000]
import { readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const siteDir = fileURLToPath(new URL("./site/", import.meta.url));
const TYPES = { ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8" };

/**
 * Serves the demo pages. `settings` can change after start (the tests learn the game's URL and
 * the partner key after this site's origin is known).
 * @param {{ port?: number, host?: string, app?: string, key?: string }} [options]
 */
export async function startPartnerSite(options = {}) {
  const settings = { app: options.app ?? "http://localhost:3000", key: options.key ?? "" };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://partner.invalid");
    const name = url.pathname === "/" ? "index.html" : url.pathname.slice(1);
    const file = path.join(siteDir, name);
    const type = TYPES[path.extname(file)];
    if (!file.startsWith(siteDir) || !type) return notFound(res);
    try {
      const text = (await readFile(file, "utf8"))
        .replaceAll("{{APP}}", settings.app.replace(/\/+$/, ""))
        .replaceAll("{{KEY}}", settings.key);
      res.writeHead(200, { "Content-Type": type, "Cache-Control": "no-store" });
      res.end(text);
    } catch {
      notFound(res);
    }
  });
  await new Promise((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    settings,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function notFound(res) {
  res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
  res.end("Not found");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const site = await startPartnerSite({
    port: Number(arg("port") ?? 4000),
    app: arg("app"),
    key: arg("key"),
  });
  console.log(`Partner demo on ${site.url} (game: ${site.settings.app})`);
}
