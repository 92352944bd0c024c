import { readFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_RULES, type Discipline, parseRacerRows, racerNameKey } from "@game/core";
import { inArray, sql } from "drizzle-orm";
import Papa from "papaparse";
import type { DbOrTx } from "./client.js";
import { seedFolder } from "./paths.js";
import { competitions, events, racers } from "./schema/index.js";
import { type AdminActor, recordAudit } from "./services/audit.js";

/** A seeded round names its competition by slug; the seed finds its id. */
type EventSeed = Omit<typeof events.$inferInsert, "competitionId"> & {
  id: number;
  competition: string;
};

interface CompetitionSeed {
  slug: string;
  name: string;
  discipline: Discipline;
  season: string;
  description: string;
  /** The round whose cover and logo the competition shows. */
  firstEventId: number;
}

/**
 * The seeded rounds' competitions, named as migration 0026 names them on a database seeded
 * before competitions existed (the series' name with its year), so a re-seed finds them.
 */
export const SEED_COMPETITIONS: CompetitionSeed[] = [
  {
    slug: "uci-downhill-world-cup-2024",
    name: "UCI Downhill World Cup 2024",
    discipline: "downhill",
    season: "2024",
    description: "The 2024 World Cup season: four rounds from Fort William to Mont-Sainte-Anne.",
    firstEventId: 1,
  },
  {
    slug: "uci-mountain-bike-world-championships-2024",
    name: "UCI Mountain Bike World Championships 2024",
    discipline: "downhill",
    season: "2024",
    description: "One race, one run each, for the rainbow jersey.",
    firstEventId: 10,
  },
  {
    slug: "freeride-2024",
    name: "Freeride 2024",
    discipline: "freeride",
    season: "2024",
    description: "The two biggest freeride contests of 2024.",
    firstEventId: 11,
  },
  {
    slug: "pro-downhill-series-2027",
    name: "Pro Downhill Series 2027",
    discipline: "downhill",
    season: "2027",
    description: "Five rounds across North America, from Windrock to the British Columbia final.",
    firstEventId: 5,
  },
];

const img = (id: number) => ({
  cover: `/img/events/cover-${id}.svg`,
  logo: `/img/events/logo-${id}.svg`,
});

/** The spec's fixed list of 12 events. Start times are UTC. */
export const SEED_EVENTS: EventSeed[] = [
  {
    id: 1,
    slug: "world-cup-fort-william-2024",
    name: "World Cup Fort William 2024",
    competition: "uci-downhill-world-cup-2024",
    round: 1,
    location: "Fort William, Scotland",
    description: "The season opener on Aonach Mòr: rocks, roots and a flat-out motorway finish.",
    status: "archived",
    startsAt: new Date("2024-05-05T13:00:00Z"),
  },
  {
    id: 2,
    slug: "world-cup-leogang-2024",
    name: "World Cup Leogang 2024",
    competition: "uci-downhill-world-cup-2024",
    round: 2,
    location: "Leogang, Austria",
    description: "Fast, jump-heavy and loud: the Austrian classic under the Asitz.",
    status: "archived",
    startsAt: new Date("2024-06-09T12:30:00Z"),
  },
  {
    id: 3,
    slug: "world-cup-val-di-sole-2024",
    name: "World Cup Val di Sole 2024",
    competition: "uci-downhill-world-cup-2024",
    round: 3,
    location: "Val di Sole, Italy",
    description: "The Black Snake: steep, brutal and loose from top to bottom.",
    status: "archived",
    startsAt: new Date("2024-06-16T12:00:00Z"),
  },
  {
    id: 4,
    slug: "world-cup-finals-mont-sainte-anne-2024",
    name: "World Cup Finals Mont-Sainte-Anne 2024",
    competition: "uci-downhill-world-cup-2024",
    round: 4,
    location: "Mont-Sainte-Anne, Canada",
    description: "The overall titles decided on the roots and rock gardens of Québec.",
    status: "archived",
    startsAt: new Date("2024-10-06T17:00:00Z"),
  },
  {
    id: 5,
    slug: "pro-dh-series-2027-round-1",
    name: "Pro Downhill Series Round 1: Windrock",
    competition: "pro-downhill-series-2027",
    round: 1,
    location: "Windrock Bike Park, Tennessee, USA",
    description: "Round 1 of the series: long, rough and physical in the Tennessee hills.",
    status: "open",
    startsAt: new Date("2027-04-18T16:00:00Z"),
  },
  {
    id: 6,
    slug: "pro-dh-series-2027-round-2",
    name: "Pro Downhill Series Round 2: Snowshoe",
    competition: "pro-downhill-series-2027",
    round: 2,
    location: "Snowshoe, West Virginia, USA",
    description: "Round 2: wet roots and big crowds on a former World Cup track.",
    status: "closed",
    startsAt: new Date("2027-05-16T16:00:00Z"),
  },
  {
    id: 7,
    slug: "pro-dh-series-2027-round-3",
    name: "Pro Downhill Series Round 3: Mammoth Mountain",
    competition: "pro-downhill-series-2027",
    round: 3,
    location: "Mammoth Mountain, California, USA",
    description: "Round 3: high altitude, pumice dust and top speeds.",
    status: "closed",
    startsAt: new Date("2027-06-20T17:00:00Z"),
  },
  {
    id: 8,
    slug: "pro-dh-series-2027-round-4",
    name: "Pro Downhill Series Round 4: Angel Fire",
    competition: "pro-downhill-series-2027",
    round: 4,
    location: "Angel Fire, New Mexico, USA",
    description: "Round 4: fast and technical through the New Mexico pines.",
    status: "closed",
    startsAt: new Date("2027-07-18T17:00:00Z"),
  },
  {
    id: 9,
    slug: "pro-dh-series-2027-round-5",
    name: "Pro Downhill Series Round 5: Sun Peaks",
    competition: "pro-downhill-series-2027",
    round: 5,
    location: "Sun Peaks, British Columbia, Canada",
    description: "The series final: the overall decided on a steep, rooty British Columbia track.",
    status: "closed",
    startsAt: new Date("2027-08-22T18:00:00Z"),
  },
  {
    id: 10,
    slug: "world-championships-pal-arinsal-2024",
    name: "World Championships Pal Arinsal 2024",
    competition: "uci-mountain-bike-world-championships-2024",
    round: 1,
    location: "Pal Arinsal, Andorra",
    description: "One run for the rainbow stripes in the Pyrenees.",
    status: "archived",
    startsAt: new Date("2024-09-01T12:00:00Z"),
  },
  {
    id: 11,
    slug: "red-bull-hardline-2024",
    name: "Red Bull Hardline 2024",
    competition: "freeride-2024",
    round: 1,
    location: "Dyfi Valley, Wales",
    description: "The gnarliest downhill race there is: huge gaps on a Welsh hillside.",
    status: "archived",
    startsAt: new Date("2024-09-08T13:00:00Z"),
  },
  {
    id: 12,
    slug: "red-bull-rampage-2024",
    name: "Red Bull Rampage 2024",
    competition: "freeride-2024",
    round: 2,
    location: "Virgin, Utah, USA",
    description: "Big-mountain freeride on the red ridges of the Utah desert.",
    status: "archived",
    startsAt: new Date("2024-10-18T16:00:00Z"),
  },
].map((e) => ({ ...e, ...img(e.id) }) as EventSeed);

/**
 * Inserts the seeded rounds given (and their competitions) that are missing; returns the ids
 * added. Tests use it to start from a few of the seed's rounds.
 */
export async function insertSeedEvents(
  db: DbOrTx,
  ids: readonly number[] = SEED_EVENTS.map((e) => e.id),
): Promise<number[]> {
  const wanted = SEED_EVENTS.filter((e) => ids.includes(e.id));
  const slugs = new Set(wanted.map((e) => e.competition));
  const comps = SEED_COMPETITIONS.filter((c) => slugs.has(c.slug));
  if (comps.length === 0) return [];
  await db
    .insert(competitions)
    .values(
      comps.map(({ firstEventId, ...c }) => ({ ...c, ...img(firstEventId), rules: DEFAULT_RULES })),
    )
    .onConflictDoNothing();
  const rows = await db
    .select({ id: competitions.id, slug: competitions.slug })
    .from(competitions)
    .where(inArray(competitions.slug, [...slugs]));
  const idOf = new Map(rows.map((r) => [r.slug, r.id]));
  const added = await db
    .insert(events)
    .values(
      wanted.map(({ competition, ...e }) => ({ ...e, competitionId: idOf.get(competition)! })),
    )
    .onConflictDoNothing({ target: events.id })
    .returning({ id: events.id });
  // Rounds an admin creates later take the ids after the seed's.
  await db.execute(
    sql`select setval(pg_get_serial_sequence('events', 'id'), greatest((select max(id) from events), 12))`,
  );
  return added.map((e) => e.id).sort((a, b) => a - b);
}

/** Reads the shipped racer CSV (the spec's upload format, also the CLI's sample file). */
export function readSeedRacers(file = path.join(seedFolder, "racers.csv")) {
  const text = readFileSync(file, "utf8");
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  return parseRacerRows(parsed.data);
}

export interface SeedSummary {
  eventsAdded: number;
  racersAdded: number;
}

/**
 * Idempotent: inserts the 12 events and the seed racers that are missing, and changes nothing
 * that is already there (so an admin's later edits survive a re-seed). With an `actor` (an admin
 * seeding by hand), a seed that adds anything is audited as "db.seed" in the same transaction.
 */
export async function seed(db: DbOrTx, opts: { actor?: AdminActor } = {}): Promise<SeedSummary> {
  return db.transaction(async (tx) => {
    const summary = await insertSeed(tx);
    if (opts.actor && (summary.eventsAdded > 0 || summary.racersAdded > 0)) {
      await recordAudit(tx, opts.actor, "db.seed", "seed", {
        eventsAdded: summary.eventsAdded,
        eventIds: summary.eventIds,
        racersAdded: summary.racersAdded,
        racersFile: "racers.csv",
      });
    }
    return { eventsAdded: summary.eventsAdded, racersAdded: summary.racersAdded };
  });
}

async function insertSeed(db: DbOrTx): Promise<SeedSummary & { eventIds: number[] }> {
  const eventIds = await insertSeedEvents(db);
  const { rows } = readSeedRacers();
  let racersAdded = 0;
  if (rows.length > 0) {
    const added = await db
      .insert(racers)
      .values(
        rows.map((r) => ({
          gameId: r.gameId,
          category: r.category,
          firstName: r.firstName,
          lastName: r.lastName,
          nameKey: racerNameKey(r.firstName, r.lastName),
          picture: r.picture,
          origin: r.origin,
          rank2024: r.rank2024,
          totalPoint2024: r.totalPoint2024,
          price: r.price,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: racers.id });
    racersAdded = added.length;
  }
  return {
    eventsAdded: eventIds.length,
    eventIds,
    racersAdded,
  };
}

/** True when the database holds no events yet (a brand new data folder). */
export async function isEmpty(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(events);
  return (row?.n ?? 0) === 0;
}
