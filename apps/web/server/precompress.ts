// The build's brotli of the browser's files (`npm run build`, server/build.ts): each text file of
// build/client that brotli makes smaller gets `<file>.br`, at brotli's best quality, which the
// static file server sends as it is (docs/decisions/0181). At start it would afford quality 5.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BROTLI_SUFFIX, brotli, compressible, ifSmaller } from "./static-files.js";

/** Writes the brotli of every compressible file under `root`; answers how many and their sizes. */
export function precompress(root: string): { files: number; bytes: number; brotliBytes: number } {
  const done = { files: 0, bytes: 0, brotliBytes: 0 };
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && !entry.name.endsWith(BROTLI_SUFFIX)) {
        if (!compressible(full)) continue;
        const body = readFileSync(full);
        const br = ifSmaller(brotli(body, 11), body);
        if (!br) continue;
        writeFileSync(`${full}${BROTLI_SUFFIX}`, br);
        done.files += 1;
        done.bytes += body.length;
        done.brotliBytes += br.length;
      }
    }
  };
  walk(root);
  return done;
}
