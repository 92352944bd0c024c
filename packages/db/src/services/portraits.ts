/**
 * Racer portraits: an admin's image file, checked by its content (PNG, JPEG or WebP only),
 * cropped square and resized with sharp, stored in the database under the racers' picture name
 * and served at `/img/racer_portrait/{picture}` (docs/decisions/0110-0112). The command line
 * (`game-admin racers portraits <folder>`) and the dashboard both store through `storePortrait`.
 */
import { createHash } from "node:crypto";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type Sharp from "sharp";
import type { DbOrTx } from "../client.js";
import { racerPortraits, racers } from "../schema/index.js";
import { type AdminActor, recordAudit } from "./audit.js";

/** The largest image file taken, the same 5 MB as the dashboard's other uploads. */
export const PORTRAIT_MAX_BYTES = 5 * 1024 * 1024;
/** Edge of the square thumbnail (tables, team slots: 40-64 CSS px, sharp on 2x screens). */
export const PORTRAIT_THUMB_PX = 128;
/** Edge of the square large image (the racer page, the racer dialog). */
export const PORTRAIT_LARGE_PX = 480;
/** A smaller source would only be blown up into a blur. */
export const PORTRAIT_MIN_PX = 64;
/** Refuses decompression bombs before decoding (a 5 MB file can claim billions of pixels). */
const MAX_INPUT_PIXELS = 50_000_000;

export type PortraitFormat = "png" | "jpeg" | "webp";
export type PortraitSize = "thumb" | "large";

/** Why a file was refused; the message is for the admin (a CLI line, a dashboard error). */
export class PortraitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PortraitError";
  }
}

/** The image format a file's first bytes announce, whatever its name says; null if none of ours. */
export function sniffImageFormat(bytes: Uint8Array): PortraitFormat | null {
  const at = (i: number, ...values: number[]) => values.every((v, j) => bytes[i + j] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (at(0, 0xff, 0xd8, 0xff)) return "jpeg";
  // "RIFF" <size> "WEBP"
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "webp";
  return null;
}

export interface ProcessedPortrait {
  format: PortraitFormat;
  width: number;
  height: number;
  thumb: Buffer;
  large: Buffer;
  etag: string;
}

/**
 * Checks an image file by its content and makes the two squares (WebP, cropped on the most
 * interesting part, turned upright from its EXIF orientation, metadata dropped).
 * Throws `PortraitError` with the reason when the file cannot be a portrait.
 */
export async function processPortrait(bytes: Uint8Array): Promise<ProcessedPortrait> {
  if (bytes.byteLength === 0) throw new PortraitError("The file is empty.");
  if (bytes.byteLength > PORTRAIT_MAX_BYTES) {
    throw new PortraitError(
      `The file is larger than ${PORTRAIT_MAX_BYTES / (1024 * 1024)} MB (${(bytes.byteLength / (1024 * 1024)).toFixed(1)} MB).`,
    );
  }
  const format = sniffImageFormat(bytes);
  if (!format) {
    throw new PortraitError("Not a PNG, JPEG or WebP image (judged by its content, not its name).");
  }
  // Loaded on first use: a native library that every other command and page would pay for.
  const sharp: typeof Sharp = (await import("sharp")).default;
  const input = () =>
    sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", animated: false });
  let meta: Awaited<ReturnType<ReturnType<typeof Sharp>["metadata"]>>;
  try {
    meta = await input().metadata();
  } catch {
    throw new PortraitError(`The ${format.toUpperCase()} image could not be read (damaged?).`);
  }
  if (meta.format !== format || !meta.width || !meta.height) {
    throw new PortraitError(`The ${format.toUpperCase()} image could not be read (damaged?).`);
  }
  if (meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw new PortraitError(
      `The image has too many pixels (${meta.width} x ${meta.height}); 50 megapixels at most.`,
    );
  }
  if (Math.min(meta.width, meta.height) < PORTRAIT_MIN_PX) {
    throw new PortraitError(
      `The image is too small (${meta.width} x ${meta.height} px); at least ${PORTRAIT_MIN_PX} px on each side.`,
    );
  }
  const square = (px: number, quality: number) =>
    input()
      .rotate()
      .resize(px, px, { fit: "cover", position: sharp.strategy.attention })
      .webp({ quality })
      .toBuffer();
  let thumb: Buffer;
  let large: Buffer;
  try {
    [thumb, large] = await Promise.all([
      square(PORTRAIT_THUMB_PX, 82),
      square(PORTRAIT_LARGE_PX, 80),
    ]);
  } catch {
    throw new PortraitError(`The ${format.toUpperCase()} image could not be read (damaged?).`);
  }
  const etag = createHash("sha256").update(thumb).update(large).digest("base64url").slice(0, 27);
  return { format, width: meta.width, height: meta.height, thumb, large, etag };
}

/** "Loïc Bruni", "loic_bruni", "LOIC-BRUNI" -> "loic-bruni": how a file name meets a racer name. */
export function portraitSlug(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

export interface PortraitRacer {
  id: number;
  gameId: number;
  name: string;
  /** The picture name the portrait is stored under for this racer. */
  picture: string;
}

export interface PortraitResult {
  file: string;
  /** `stored` (or, in a dry run, would be stored) or `skipped` with the reason. */
  status: "stored" | "skipped";
  reason?: string;
  /** How the file found its racers: their Picture value, or `First-Last` in the name. */
  matchedBy?: "picture" | "name";
  racers: PortraitRacer[];
  /** The picture names it is (or would be) served under. */
  pictures: string[];
  /** Racers that had no Picture value and get one (`loic-bruni.webp`). */
  picturesSet: number;
}

/** The racers a file is for: those whose Picture value is its name, else those named by it. */
async function matchRacers(
  db: DbOrTx,
  fileName: string,
): Promise<{ matchedBy: "picture" | "name"; rows: (typeof racers.$inferSelect)[] } | null> {
  const byPicture = await db
    .select()
    .from(racers)
    .where(sql`lower(${racers.picture}) = lower(${fileName})`)
    .orderBy(racers.gameId, racers.id);
  if (byPicture.length > 0) return { matchedBy: "picture", rows: byPicture };
  const stem = portraitSlug(fileName.replace(/\.[^.]*$/, ""));
  if (!stem) return null;
  // Every event's entries of the racer: a few thousand rows at most, compared in JavaScript so
  // accents, case and separators ("Loic_Bruni", "loïc-bruni") never matter.
  const all = await db
    .select({ id: racers.id, firstName: racers.firstName, lastName: racers.lastName })
    .from(racers);
  const ids = all
    .filter((r) => portraitSlug(`${r.firstName} ${r.lastName}`) === stem)
    .map((r) => r.id);
  if (ids.length === 0) return null;
  const rows = await db
    .select()
    .from(racers)
    .where(inArray(racers.id, ids))
    .orderBy(racers.gameId, racers.id);
  return { matchedBy: "name", rows };
}

/** A file name as shown and logged: no folders, no control characters, not endless. */
export function cleanPortraitFileName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const base = (name.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
  return base.trim().slice(0, 200);
}

/**
 * Stores one portrait file for the racers it names (`picture` value, or `First-Last.jpg`), in
 * one transaction with its audit record. A racer matched by name without a Picture value gets
 * `first-last.webp`. Never throws for a bad file: the result says why it was skipped.
 */
export async function storePortrait(
  db: DbOrTx,
  input: { fileName: string; bytes: Uint8Array; actor: AdminActor; dryRun?: boolean },
): Promise<PortraitResult> {
  const file = cleanPortraitFileName(input.fileName);
  const skipped = (reason: string, matchedBy?: "picture" | "name"): PortraitResult => ({
    file,
    status: "skipped",
    reason,
    ...(matchedBy ? { matchedBy } : {}),
    racers: [],
    pictures: [],
    picturesSet: 0,
  });
  if (!file) return skipped("The file has no name.");
  const match = await matchRacers(db, file);
  if (!match) {
    return skipped(
      "No racer has this Picture value or this name (name files by the Picture column, or First-Last.jpg).",
    );
  }
  let image: ProcessedPortrait;
  try {
    image = await processPortrait(input.bytes);
  } catch (error) {
    if (error instanceof PortraitError) return skipped(error.message, match.matchedBy);
    throw error;
  }
  const stem = portraitSlug(file.replace(/\.[^.]*$/, ""));
  const matched: PortraitRacer[] = match.rows.map((r) => ({
    id: r.id,
    gameId: r.gameId,
    name: `${r.firstName} ${r.lastName}`,
    picture: r.picture || `${stem}.webp`,
  }));
  const pictures = [...new Set(matched.map((r) => r.picture))];
  const withoutPicture = match.rows.filter((r) => !r.picture).map((r) => r.id);
  const result: PortraitResult = {
    file,
    status: "stored",
    matchedBy: match.matchedBy,
    racers: matched,
    pictures,
    picturesSet: withoutPicture.length,
  };
  if (input.dryRun) return result;
  await db.transaction(async (tx) => {
    const now = new Date();
    for (const picture of pictures) {
      const row = {
        picture,
        thumb: image.thumb,
        large: image.large,
        etag: image.etag,
        sourceName: file,
        updatedAt: now,
      };
      await tx
        .insert(racerPortraits)
        .values(row)
        .onConflictDoUpdate({ target: racerPortraits.picture, set: row });
    }
    if (withoutPicture.length > 0) {
      await tx
        .update(racers)
        .set({ picture: `${stem}.webp`, updatedAt: now })
        .where(
          and(
            inArray(racers.id, withoutPicture),
            or(isNull(racers.picture), eq(racers.picture, "")),
          ),
        );
    }
    await recordAudit(tx, input.actor, "racer.portrait", `picture:${pictures.join(",")}`, {
      file,
      matchedBy: match.matchedBy,
      racers: matched.map((r) => r.id),
      picturesSet: withoutPicture.length,
      width: image.width,
      height: image.height,
      format: image.format,
    });
  });
  return result;
}

export interface StoredPortrait {
  bytes: Buffer;
  etag: string;
  updatedAt: Date;
}

/** One stored image of a picture name, or null when there is none. */
export async function getPortrait(
  db: DbOrTx,
  picture: string,
  size: PortraitSize = "thumb",
): Promise<StoredPortrait | null> {
  const [row] = await db
    .select({
      bytes: size === "large" ? racerPortraits.large : racerPortraits.thumb,
      etag: racerPortraits.etag,
      updatedAt: racerPortraits.updatedAt,
    })
    .from(racerPortraits)
    .where(eq(racerPortraits.picture, picture));
  return row ?? null;
}

/** The picture names that have a stored portrait, among `pictures`. */
export async function portraitsStored(
  db: DbOrTx,
  pictures: readonly string[],
): Promise<Set<string>> {
  if (pictures.length === 0) return new Set();
  const rows = await db
    .select({ picture: racerPortraits.picture })
    .from(racerPortraits)
    .where(inArray(racerPortraits.picture, [...new Set(pictures)]));
  return new Set(rows.map((r) => r.picture));
}
