// Runs the benchmarks: `npm run bench` runs all, `npm run bench -- team-save` one of them.
// Each benchmark is bench/<name>/run.mjs and prints its own figures.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const all = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(here, d.name, "run.mjs")))
  .map((d) => d.name)
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark: ${unknown.join(", ")} (have: ${all.join(", ") || "none"})`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  console.log(`\n== bench/${name}`);
  const r = spawnSync(process.execPath, [path.join(here, name, "run.mjs")], { stdio: "inherit" });
  if (r.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
