import {
  type CompetitionRules,
  DISCIPLINE_SHORT,
  describeRules,
  parseDiscipline,
  type RuleChanges,
} from "@game/core";
import {
  archiveCompetition,
  type CompetitionView,
  changeCompetitionRules,
  createCompetition,
  getCompetition,
  listCompetitions,
} from "@game/db";
import { Command, InvalidArgumentError } from "commander";
import { currentActor, withDb } from "../context.js";
import { CliError } from "../errors.js";
import { inert, printJson, printTable } from "../output.js";

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

function discipline(value: string): string {
  const d = parseDiscipline(value);
  if (!d) {
    throw new InvalidArgumentError(
      `use one of ${[...new Set(Object.keys(DISCIPLINE_SHORT))].join(", ")}.`,
    );
  }
  return d;
}

interface RuleOptions {
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
function withRuleOptions(cmd: Command): Command {
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

function ruleChanges(o: RuleOptions): RuleChanges {
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

/** The JSON shape of a competition (the API's, with the rounds' ids). */
export function competitionJson(c: CompetitionView) {
  return {
    slug: c.slug,
    name: c.name,
    discipline: c.discipline,
    season: c.season,
    state: c.state,
    description: c.description,
    rulesOpen: c.rulesOpen,
    rules: c.rules,
    rounds: c.rounds.map((r) => ({
      id: r.id,
      round: r.round,
      name: r.name,
      location: r.location,
      status: r.status,
      startsAt: r.startsAt.toISOString(),
      locksAt: r.lockAt.toISOString(),
      settled: r.settledAt !== null,
      racers: r.racers,
    })),
  };
}

function rulesText(rules: CompetitionRules): string {
  return describeRules(rules)
    .map((line) => `  ${line}`)
    .join("\n");
}

function printCompetition(c: CompetitionView): void {
  console.log(`${inert(c.name)} (${c.slug})`);
  console.log(
    `${c.discipline}${c.season ? `, ${c.season}` : ""}, ${c.state}${c.rulesOpen ? "" : ", rules fixed"}`,
  );
  console.log(`Rules:\n${rulesText(c.rules)}`);
  console.log("");
  printTable(
    c.rounds,
    [
      { header: "Round", value: (r) => r.round ?? "", align: "right" },
      { header: "ID", value: (r) => r.id, align: "right" },
      { header: "Name", value: (r) => inert(r.name), max: 50 },
      { header: "Status", value: (r) => (r.settledAt ? `${r.status}, settled` : r.status) },
      {
        header: "Starts (UTC)",
        value: (r) => r.startsAt.toISOString().slice(0, 16).replace("T", " "),
      },
      { header: "Racers", value: (r) => r.racers, align: "right" },
    ],
    `No rounds yet. Add one: game-admin events create --competition ${c.slug} --name "Round 1" --starts <ISO time>`,
  );
}

export function competitionsCommand(): Command {
  const competitions = new Command("competitions").description(
    "competitions: create, list, show, rules, archive",
  );

  withRuleOptions(
    competitions
      .command("create")
      .description("create a competition (a series or a one-off race) with its rules")
      .argument("<name>", 'its name, e.g. "Pro Downhill Series 2028"')
      .requiredOption("--discipline <d>", "dh, xc, enduro, freeride or other", discipline)
      .option("--year <label>", "the year or season label, e.g. 2028")
      .option("--description <text>", "a line for the competition page"),
  )
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      '\nExample:\n  $ game-admin competitions create "Pro Downhill Series 2028" --discipline dh --year 2028\n  $ game-admin competitions create "XC Cup 2028" --discipline xc --min-women 3 --max-women 3 \\\n      --min-juniors 0 --budget 1500000\n  $ game-admin competitions create "Enduro Cup 2028" --discipline enduro --captain\n  $ game-admin competitions create "Marathon Cup 2028" --discipline xc --bench\n  $ game-admin competitions create "Stage Race 2028" --discipline xc --transfers 1:5:4 --wildcard',
    )
    .action(
      async (
        name: string,
        opts: RuleOptions & {
          discipline: string;
          year?: string;
          description?: string;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        const c = await withDb(cmd, (h) =>
          createCompetition(
            h.db,
            {
              name,
              discipline: opts.discipline,
              season: opts.year,
              description: opts.description,
              rules: ruleChanges(opts),
            },
            currentActor(),
            new Date(),
          ),
        );
        if (opts.json) return printJson(competitionJson(c));
        console.log(`Created ${inert(c.name)}: slug ${c.slug}.`);
        console.log(`Rules:\n${rulesText(c.rules)}`);
        console.log(
          `Next: game-admin events create --competition ${c.slug} --name "Round 1" --starts <ISO time>`,
        );
      },
    );

  competitions
    .command("list")
    .description("list the competitions: live and upcoming first")
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ game-admin competitions list --json")
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const rows = await withDb(cmd, (h) => listCompetitions(h.db, new Date()));
      if (opts.json) return printJson(rows.map(competitionJson));
      printTable(
        rows,
        [
          { header: "Slug", value: (c) => c.slug },
          { header: "Name", value: (c) => inert(c.name), max: 44 },
          { header: "Discipline", value: (c) => c.discipline },
          { header: "Season", value: (c) => c.season },
          { header: "State", value: (c) => c.state },
          { header: "Rounds", value: (c) => c.rounds.length, align: "right" },
        ],
        'No competitions. Create one: game-admin competitions create "<name>" --discipline dh',
      );
    });

  competitions
    .command("show")
    .description("a competition's rules and rounds")
    .argument("<slug>", "the competition's slug (see `competitions list`)")
    .option("--json", "print JSON")
    .addHelpText("after", "\nExample:\n  $ game-admin competitions show pro-downhill-series-2027")
    .action(async (slug: string, opts: { json?: boolean }, cmd: Command) => {
      const c = await withDb(cmd, (h) => getCompetition(h.db, slug, new Date()));
      if (!c) {
        throw new CliError(
          `No competition has the slug "${inert(slug)}" (see \`game-admin competitions list\`).`,
        );
      }
      if (opts.json) return printJson(competitionJson(c));
      printCompetition(c);
    });

  withRuleOptions(
    competitions
      .command("rules")
      .description("change a competition's rules (until its first lock)")
      .argument("<slug>", "the competition's slug"),
  )
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      "\nWithout options, prints the rules. Refused (exit 1) once a round's teams have locked.\n\nExample:\n  $ game-admin competitions rules xc-cup-2028 --min-women 3 --max-women 3\n  $ game-admin competitions rules xc-cup-2028 --captain\n  $ game-admin competitions rules xc-cup-2028 --bench\n  $ game-admin competitions rules xc-cup-2028 --transfers 1:5:4 --wildcard\n  $ game-admin competitions rules xc-cup-2028 --transfers unlimited --no-wildcard",
    )
    .action(async (slug: string, opts: RuleOptions & { json?: boolean }, cmd: Command) => {
      const changes = ruleChanges(opts);
      const r = await withDb(cmd, async (h) => {
        if (Object.keys(changes).length === 0) {
          const c = await getCompetition(h.db, slug, new Date());
          if (!c) {
            throw new CliError(
              `No competition has the slug "${inert(slug)}" (see \`game-admin competitions list\`).`,
            );
          }
          return { competition: c, changed: false };
        }
        return changeCompetitionRules(h.db, slug, changes, currentActor(), new Date());
      });
      if (opts.json) return printJson({ ...competitionJson(r.competition), changed: r.changed });
      if (Object.keys(changes).length > 0) {
        console.log(
          r.changed
            ? `The rules of ${inert(r.competition.name)} are now:`
            : `The rules of ${inert(r.competition.name)} were already so:`,
        );
      }
      console.log(rulesText(r.competition.rules));
    });

  competitions
    .command("archive")
    .description("archive a competition: off the calendar, its tables and history kept")
    .argument("<slug>", "the competition's slug")
    .addHelpText("after", "\nExample:\n  $ game-admin competitions archive freeride-2024")
    .action(async (slug: string, _opts: unknown, cmd: Command) => {
      const r = await withDb(cmd, (h) =>
        archiveCompetition(h.db, slug, currentActor(), new Date()),
      );
      console.log(
        r.changed
          ? `${inert(r.competition.name)} is archived (${r.competition.rounds.length} rounds).`
          : `${inert(r.competition.name)} was already archived.`,
      );
    });

  return competitions;
}
