import { readFileSync } from "node:fs";
import path from "node:path";
import { parseRacerRows, racerNameKey } from "@game/core";
import { sql } from "drizzle-orm";
import Papa from "papaparse";
import type { DbOrTx } from "./client.js";
import { seedFolder } from "./paths.js";
import { events, racers } from "./schema/index.js";
import { type AdminActor, recordAudit } from "./services/audit.js";

type EventSeed = typeof events.$inferInsert;

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
    series: "UCI Downhill World Cup",
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
    series: "UCI Downhill World Cup",
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
    series: "UCI Downhill World Cup",
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
    series: "UCI Downhill World Cup",
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
    series: "Pro Downhill Series 2027",
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
    series: "Pro Downhill Series 2027",
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
    series: "Pro Downhill Series 2027",
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
    series: "Pro Downhill Series 2027",
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
    series: "Pro Downhill Series 2027",
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
    series: "UCI Mountain Bike World Championships",
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
    series: "Freeride",
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
    series: "Freeride",
    round: 2,
    location: "Virgin, Utah, USA",
    description: "Big-mountain freeride on the red ridges of the Utah desert.",
    status: "archived",
    startsAt: new Date("2024-10-18T16:00:00Z"),
  },
].map((e) => ({ ...e, ...img(e.id) }) as EventSeed);

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
  const addedEvents = await db
    .insert(events)
    .values(SEED_EVENTS)
    .onConflictDoNothing({ target: events.id })
    .returning({ id: events.id });
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
    eventsAdded: addedEvents.length,
    eventIds: addedEvents.map((e) => e.id).sort((a, b) => a - b),
    racersAdded,
  };
}

/** True when the database holds no events yet (a brand new data folder). */
export async function isEmpty(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(events);
  return (row?.n ?? 0) === 0;
}
