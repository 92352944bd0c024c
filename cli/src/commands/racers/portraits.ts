/**
 * `game-admin racers portraits <folder>`: every image in a folder becomes the portrait of the
 * racers it names (their Picture value, or First-Last.jpg), through the same service as the
 * dashboard's upload: checked by content, resized, stored in the database, audited.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { PORTRAIT_MAX_BYTES, type PortraitResult, storePortrait } from "@game/db";
import { Command } from "commander";
import { currentActor, inputPath, withDb } from "../../context.js";
import { CliError, UsageError } from "../../errors.js";
import { inert, printJson } from "../../output.js";

/** One line per file: what happened to it. */
function portraitLine(r: PortraitResult, dryRun: boolean): string {
  if (r.status === "skipped") return inert(`${r.file}: skipped: ${r.reason}`);
  const names = [...new Set(r.racers.map((x) => x.name))].join(", ");
  const entries = `${r.racers.length} ${r.racers.length === 1 ? "entry" : "entries"}`;
  const by = r.matchedBy === "picture" ? "Picture value" : "name";
  const set = r.picturesSet > 0 ? `; Picture set on ${r.picturesSet}` : "";
  return inert(
    `${r.file}: ${dryRun ? "would be stored" : "stored"} for ${names} (${entries}, by ${by}) as ${r.pictures.join(", ")}${set}`,
  );
}

/** The files of a folder, by name; hidden files (".DS_Store") and sub-folders are not images. */
function folderFiles(folder: string): string[] {
  const at = inputPath(folder);
  let names: string[];
  try {
    if (!statSync(at).isDirectory()) throw new UsageError(`${folder} is not a folder`);
    names = readdirSync(at);
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new CliError(`cannot read the folder ${folder}: ${code}`);
  }
  return names
    .filter((n) => !n.startsWith("."))
    .map((n) => path.join(at, n))
    .filter((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    })
    .sort((a, b) => a.localeCompare(b, "en"));
}

export function portraitsCommand(): Command {
  return new Command("portraits")
    .description("store the racers' portraits from a folder of PNG, JPEG or WebP images")
    .argument(
      "<folder>",
      "images named by the racer's Picture value (as in racers list) or First-Last.jpg",
    )
    .option("--dry-run", "check every file and say which racers it is for, writing nothing")
    .option("--json", "print the result of every file as JSON")
    .addHelpText(
      "after",
      `
Each image is checked by its content (PNG, JPEG or WebP, up to ${PORTRAIT_MAX_BYTES / (1024 * 1024)} MB, at least 64 px),
cropped to a square and stored at 128 and 480 px; it shows for the racer in every event. A racer
matched by name without a Picture value gets one (loic-bruni.webp). Files that match no racer
or are not images are skipped with the reason. Exit code 1 when no file could be stored.

Example:
  $ game-admin racers portraits ./portraits --dry-run`,
    )
    .action(async (folder: string, opts: { dryRun?: boolean; json?: boolean }, cmd: Command) => {
      const files = folderFiles(folder);
      if (files.length === 0) throw new CliError(`${folder} has no files`);
      const dryRun = opts.dryRun === true;
      const actor = currentActor();
      const results = await withDb(cmd, async (h) => {
        const done: PortraitResult[] = [];
        for (const [i, file] of files.entries()) {
          const name = path.basename(file);
          const size = statSync(file).size;
          const result =
            size > PORTRAIT_MAX_BYTES
              ? ({
                  file: name,
                  status: "skipped",
                  reason: `The file is larger than ${PORTRAIT_MAX_BYTES / (1024 * 1024)} MB (${(size / (1024 * 1024)).toFixed(1)} MB).`,
                  racers: [],
                  pictures: [],
                  picturesSet: 0,
                } satisfies PortraitResult)
              : await storePortrait(h.db, {
                  fileName: name,
                  bytes: readFileSync(file),
                  actor,
                  dryRun,
                });
          done.push(result);
          // Progress: the line itself, numbered; with --json, on stderr so stdout stays JSON.
          const line = `[${i + 1}/${files.length}] ${portraitLine(result, dryRun)}`;
          if (opts.json) process.stderr.write(`${line}\n`);
          else console.log(line);
        }
        return done;
      });
      const stored = results.filter((r) => r.status === "stored").length;
      const skipped = results.length - stored;
      if (opts.json) {
        printJson({ dryRun, stored, skipped, files: results });
      } else {
        console.log(
          `${dryRun ? "Dry run (nothing written): " : ""}${results.length} ${results.length === 1 ? "file" : "files"}: ${stored} ${dryRun ? "would be stored" : "stored"}, ${skipped} skipped.`,
        );
      }
      if (stored === 0) throw new CliError(`no file in ${folder} could be stored`);
    });
}
