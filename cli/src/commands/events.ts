import { EVENT_STATUSES, type EventStatus, lockTime } from "@game/core";
import { createRound, listEvents, scheduleEvent, setEventStatus } from "@game/db";
import { Argument, Command, InvalidArgumentError } from "commander";
import { currentActor, withDb } from "../context.js";
import { CliError, positiveInt } from "../errors.js";
import { inert, printJson, printTable } from "../output.js";

/** An ISO 8601 time WITH its zone: "2027-04-18T16:00" alone would depend on this machine's zone. */
function isoTime(value: string): Date {
  const text = value.trim();
  const at = new Date(text);
  if (
    !/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i.test(text) ||
    Number.isNaN(at.getTime())
  ) {
    throw new InvalidArgumentError("give an ISO time with its zone, e.g. 2027-04-18T16:00:00Z.");
  }
  return at;
}

/** The words the help uses: "open", "close" or "closed", "archive" or "archived". */
const STATUS_WORDS: Readonly<Record<string, EventStatus>> = {
  open: "open",
  opened: "open",
  close: "closed",
  closed: "closed",
  archive: "archived",
  archived: "archived",
};

function statusWord(value: string): EventStatus {
  const status = STATUS_WORDS[value.trim().toLowerCase()];
  if (!status) throw new InvalidArgumentError("use open, close (closed) or archive (archived).");
  return status;
}

export function eventsCommand(): Command {
  const events = new Command("events").description(
    "events (rounds): create, list, open/close/archive, schedule",
  );

  events
    .command("create")
    .description("add a round to a competition (closed, without racers, after its last round)")
    .requiredOption("--competition <slug>", "the competition (see `competitions list`)")
    .requiredOption("--name <name>", 'the round\'s name, e.g. "Round 1: Windrock"')
    .requiredOption("--starts <time>", "ISO 8601 start time with zone", isoTime)
    .option("--location <place>", "where it races")
    .option("--yes", "record a round whose start has passed")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      '\nThen enter its racers (`racers import` or `racers copy`) and open it (`events status <id> open`).\n\nExample:\n  $ game-admin events create --competition pro-downhill-series-2028 --name "Round 1: Windrock" \\\n      --starts 2028-04-23T16:00:00Z --location "Windrock, Tennessee"',
    )
    .action(
      async (
        opts: {
          competition: string;
          name: string;
          starts: Date;
          location?: string;
          yes?: boolean;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        const r = await withDb(cmd, (h) =>
          createRound(
            h.db,
            {
              competition: opts.competition,
              name: opts.name,
              startsAt: opts.starts,
              location: opts.location,
            },
            currentActor(),
            { now: new Date(), allowPast: opts.yes },
          ),
        );
        if (opts.json) {
          return printJson({
            id: r.id,
            competition: r.competition,
            round: r.round,
            name: r.name,
            status: r.status,
            startsAt: r.startsAt.toISOString(),
            locksAt: r.lockAt.toISOString(),
          });
        }
        console.log(
          `Created event ${r.id}: ${inert(r.name)}, round ${r.round} of ${r.competition}, starts ${r.startsAt.toISOString()} (teams lock ${r.lockAt.toISOString()}).`,
        );
        console.log(
          `Next: game-admin racers copy <fromEventId> ${r.id}, or game-admin racers import <file> --game ${r.id}; then game-admin events status ${r.id} open`,
        );
      },
    );

  events
    .command("list")
    .description("list the events with their status and start time (UTC)")
    .option("--competition <slug>", "only this competition's rounds")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      "\nExample:\n  $ game-admin events list --competition pro-downhill-series-2027",
    )
    .action(async (opts: { json?: boolean; competition?: string }, cmd: Command) => {
      const all = await withDb(cmd, (h) => listEvents(h.db));
      const rows = opts.competition
        ? all.filter((e) => e.competitionSlug === opts.competition)
        : all;
      if (
        opts.competition &&
        rows.length === 0 &&
        !all.some((e) => e.competitionSlug === opts.competition)
      ) {
        throw new CliError(
          `No competition has the slug "${inert(opts.competition)}" with rounds (see \`game-admin competitions list\`).`,
        );
      }
      if (opts.json) {
        return printJson(
          rows.map((e) => ({
            id: e.id,
            name: e.name,
            competition: e.competitionSlug,
            round: e.round,
            status: e.status,
            startsAt: e.startsAt.toISOString(),
            locksAt: lockTime(e).toISOString(),
          })),
        );
      }
      printTable(
        rows,
        [
          { header: "ID", value: (e) => e.id, align: "right" },
          { header: "Name", value: (e) => e.name, max: 50 },
          { header: "Competition", value: (e) => e.competitionSlug, max: 36 },
          // The order a season advances in (never the dates): docs/decisions/0140.
          { header: "Round", value: (e) => e.round ?? "", align: "right" },
          { header: "Status", value: (e) => e.status },
          {
            header: "Starts (UTC)",
            value: (e) => e.startsAt.toISOString().slice(0, 16).replace("T", " "),
          },
          {
            header: "Teams lock (UTC)",
            value: (e) => lockTime(e).toISOString().slice(0, 16).replace("T", " "),
          },
        ],
        "No events. Run `game-admin db seed`.",
      );
    });

  events
    .command("status")
    .description("open, close or archive an event (only open events can be entered)")
    .argument("<id>", "event id", positiveInt)
    .addArgument(
      new Argument(
        "<status>",
        `new status: open, close or archive (or ${EVENT_STATUSES.join(", ")})`,
      ).argParser(statusWord),
    )
    .addHelpText("after", "\nExample:\n  $ game-admin events status 5 close")
    .action(async (id: number, status: EventStatus, _opts: unknown, cmd: Command) => {
      const r = await withDb(cmd, (h) => setEventStatus(h.db, id, status, currentActor()));
      console.log(
        r.changed
          ? `Event ${id} (${r.event.name}) is now ${status}.`
          : `Event ${id} (${r.event.name}) was already ${status}.`,
      );
    });

  events
    .command("schedule")
    .description("set when an event starts (teams lock as its competition's rules say)")
    .argument("<id>", "event id", positiveInt)
    .argument("<time>", "ISO 8601 time with zone", isoTime)
    .option("--yes", "set a time in the past (teams lock at once)")
    .addHelpText("after", "\nExample:\n  $ game-admin events schedule 5 2027-04-18T16:00:00Z")
    .action(async (id: number, at: Date, opts: { yes?: boolean }, cmd: Command) => {
      // A past start locks every team of the event at once: a typo in the year is likelier.
      if (at.getTime() <= Date.now() && !opts.yes) {
        throw new CliError(
          `${at.toISOString()} is in the past: teams of event ${id} would lock at once. Add --yes if that is what you want.`,
        );
      }
      const r = await withDb(cmd, (h) => scheduleEvent(h.db, id, at, currentActor()));
      const when = r.event.startsAt.toISOString();
      const lock = lockTime(r.event).toISOString();
      console.log(
        r.changed
          ? `Event ${id} (${r.event.name}) now starts ${when}; teams lock ${lock}.`
          : `Event ${id} (${r.event.name}) already starts ${when}.`,
      );
      // Out of date order is allowed (a postponed round), but the admin is told.
      if (r.warning) console.error(`Warning: ${r.warning}`);
    });

  return events;
}
