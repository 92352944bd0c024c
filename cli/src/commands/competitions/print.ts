/** How the competitions commands show a competition: as text or as JSON. */
import { type CompetitionRules, describeRules } from "@game/core";
import type { CompetitionView } from "@game/db";
import { CliError } from "../../errors.js";
import { inert, printTable } from "../../output.js";

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

export function rulesText(rules: CompetitionRules): string {
  return describeRules(rules)
    .map((line) => `  ${line}`)
    .join("\n");
}

export function printCompetition(c: CompetitionView): void {
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

/** The failure for a slug no competition has. */
export function noSuchCompetition(slug: string): CliError {
  return new CliError(
    `No competition has the slug "${inert(slug)}" (see \`game-admin competitions list\`).`,
  );
}
