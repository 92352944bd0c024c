// Generates a migration from the schema with drizzle-kit. Migrations are committed and never
// edited once released; the name is the one argument (default "change").
import { spawnSync } from "node:child_process";

const name = process.argv[2] ?? "change";
const r = spawnSync("npx", ["drizzle-kit", "generate", "--name", name], { stdio: "inherit" });
process.exit(r.status ?? 1);
