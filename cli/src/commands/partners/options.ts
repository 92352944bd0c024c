/** What several partners commands print the same way. */
import type { PartnerListRow } from "@game/db";
import { inert } from "../../output.js";

/** `Partner 3 (MTB News)`, safe to print. */
export const label = (p: PartnerListRow) => inert(`Partner ${p.id} (${p.name})`);

export const example = (...lines: string[]) =>
  `\nExample:\n${lines.map((l) => `  $ game-admin partners ${l}`).join("\n")}`;
