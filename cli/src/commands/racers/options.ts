/** What several racers commands parse or print the same way. */
import { type Category, normalizeCategory } from "@game/core";
import { checkCsvSize, type RacerFieldChange } from "@game/db";
import { InvalidArgumentError } from "commander";
import { readInputFile } from "../../context.js";

export function category(value: string): Category {
  const c = normalizeCategory(value);
  if (!c)
    throw new InvalidArgumentError('use "Pro Men", "Pro Women", "17-18 Men" or "17-18 Women".');
  return c;
}

/** A whole number from 0 (prices, ranks, points). */
export function count(value: string): number {
  const n = Number(value.replace(/[,_$]/g, ""));
  if (!/^\s*\$?[\d,_]+\s*$/.test(value) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError("must be a whole number from 0.");
  }
  return n;
}

/** The file's bytes, size-checked before reading: the service detects the encoding. */
export function readCsvBytes(file: string): Uint8Array {
  return readInputFile(file, checkCsvSize);
}

const shown = (v: string | number | null) =>
  v === null ? "(none)" : typeof v === "number" ? String(v) : JSON.stringify(v);

/** `Price 99000 -> 120000, Origin "" -> "FRA"` */
export function changeText(changes: readonly RacerFieldChange[]): string {
  return changes.map((c) => `${c.field} ${shown(c.from)} -> ${shown(c.to)}`).join(", ");
}
