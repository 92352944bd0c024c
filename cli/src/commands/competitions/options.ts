/** The rule flags `create` and `rules` share, and their parsers. */
import { DISCIPLINE_SHORT, parseDiscipline, type RuleChanges } from "@game/core";
import { type Command, InvalidArgumentError } from "commander";

/** A whole number >= 0 (a count or an amount); else a usage error (exit 2). */
function count(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError("must be a whole number, 0 or more.");
  }
  return n;
}

/**
 * A maximum: a whole number, or "none" for no maximum. A word, not null: commander stores an
 * option whose parser returns null as "".
 */
function maximum(value: string): number | "none" {
  return value.trim().toLowerCase() === "none" ? "none" : count(value);
}

type Transfers = NonNullable<RuleChanges["transfers"]>;

/**
 * Limited transfers as "free:bank:cost" (e.g. "1:5:4": 1 free change a round, unused ones kept
 * up to 5, each extra change 4 points), or "unlimited" (the word, as commander stores a null
 * parsed value as ""); else a usage error (exit 2).
 */
function transfers(value: string): Transfers | "unlimited" {
  const v = value.trim().toLowerCase();
  if (v === "unlimited") return "unlimited";
  const parts = v.split(":");
  if (parts.length !== 3 || parts.some((p) => !/^\d+$/.test(p.trim()))) {
    throw new InvalidArgumentError(
      'use free:bank:cost as three whole numbers (e.g. 1:5:4: 1 free change a round, up to 5 kept, 4 points per extra change), or "unlimited".',
    );
  }
  const [free, bank, cost] = parts.map((p) => Number(p.trim())) as [number, number, number];
  return { free, bank, cost };
}

export function discipline(value: string): string {
  const d = parseDiscipline(value);
  if (!d) {
    throw new InvalidArgumentError(
      `use one of ${[...new Set(Object.keys(DISCIPLINE_SHORT))].join(", ")}.`,
    );
  }
  return d;
}

export interface RuleOptions {
  teamSize?: number;
  budget?: number;
  minWomen?: number;
  maxWomen?: number | "none";
  minJuniors?: number;
  maxJuniors?: number | "none";
  lockHours?: number;
  /** --captain: true, --no-captain: false, neither: unchanged. */
  captain?: boolean;
  /** --bench: true, --no-bench: false, neither: unchanged. */
  bench?: boolean;
  /** --transfers free:bank:cost, or --transfers unlimited; absent: unchanged. */
  transfers?: Transfers | "unlimited";
  /** --wildcard: true, --no-wildcard: false, neither: unchanged. */
  wildcard?: boolean;
}

/** The rule flags, shared by `create` and `rules`. */
export function withRuleOptions(cmd: Command): Command {
  return cmd
    .option("--team-size <n>", "riders per team (default 6)", count)
    .option("--budget <n>", "budget per team (default 1000000)", count)
    .option("--min-women <n>", "at least this many women (default 2)", count)
    .option("--max-women <n>", 'at most this many women ("none": no maximum)', maximum)
    .option("--min-juniors <n>", "at least this many juniors (default 1)", count)
    .option("--max-juniors <n>", 'at most this many juniors ("none": no maximum)', maximum)
    .option("--lock-hours <n>", "teams lock this many hours before a round (default 12)", count)
    .option("--captain", "each team names a captain who scores double (default off)")
    .option("--no-captain", "teams name no captain")
    .option(
      "--bench",
      "a team may add one rider on the bench who scores for a starter who does not start (default off)",
    )
    .option("--no-bench", "teams have no bench rider")
    .option(
      "--transfers <free:bank:cost>",
      'limit the changes between rounds: free changes a round, unused ones kept up to bank, each extra change costs cost points, e.g. 1:5:4 ("unlimited": no limit, the default)',
      transfers,
    )
    .option(
      "--wildcard",
      "once per competition a team may make one round's changes all free (needs --transfers; default off)",
    )
    .option("--no-wildcard", "teams have no wildcard");
}

export function ruleChanges(o: RuleOptions): RuleChanges {
  const changes: RuleChanges = {};
  if (o.teamSize !== undefined) changes.teamSize = o.teamSize;
  if (o.budget !== undefined) changes.budget = o.budget;
  if (o.minWomen !== undefined) changes.minWomen = o.minWomen;
  if (o.maxWomen !== undefined) changes.maxWomen = o.maxWomen === "none" ? null : o.maxWomen;
  if (o.minJuniors !== undefined) changes.minJuniors = o.minJuniors;
  if (o.maxJuniors !== undefined) {
    changes.maxJuniors = o.maxJuniors === "none" ? null : o.maxJuniors;
  }
  if (o.lockHours !== undefined) changes.lockHours = o.lockHours;
  if (o.captain !== undefined) changes.captain = o.captain;
  if (o.bench !== undefined) changes.bench = o.bench;
  if (o.transfers !== undefined) {
    changes.transfers = o.transfers === "unlimited" ? null : o.transfers;
  }
  if (o.wildcard !== undefined) changes.wildcard = o.wildcard;
  return changes;
}
