import { run } from "./program.js";

// A reader that stops early (`game-admin racers list | head -1`) closes the pipe: the rest of the
// output has nobody to read it. Drop it quietly, as Unix tools do, rather than end on a stack
// trace; the command itself runs to its end, so its work and its exit code stay whole.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
  });
}

process.exitCode = await run(process.argv.slice(2));
