/** `game-admin racers set <id>`: change one racer's fields. */
import type { Category } from "@game/core";
import { type RacerEdit, setRacer } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { positiveInt, UsageError } from "../../errors.js";
import { inert } from "../../output.js";
import { category, changeText, count } from "./options.js";

interface SetOptions {
  price?: number;
  rank?: number;
  points?: number;
  origin?: string;
  category?: Category;
  firstName?: string;
  lastName?: string;
  picture?: string;
}

export function setCommand(): Command {
  return new Command("set")
    .description("change one racer's fields (what is left out stays as it is)")
    .argument("<id>", "racer id (see racers list)", positiveInt)
    .option("--price <n>", "price", count)
    .option("--rank <n>", "Rank2024 (0 = unranked)", count)
    .option("--points <n>", "TotalPoint2024", count)
    .option("--origin <text>", 'origin (country or team); "" clears it')
    .option("--category <c>", "category", category)
    .option("--first-name <text>", "first name")
    .option("--last-name <text>", "last name")
    .option("--picture <file>", 'picture file name; "" clears it')
    .addHelpText("after", "\nExample:\n  $ game-admin racers set 12 --price 120000 --rank 3")
    .action(async (id: number, opts: SetOptions, cmd: Command) => {
      const edit: RacerEdit = {
        price: opts.price,
        rank2024: opts.rank,
        totalPoint2024: opts.points,
        origin: opts.origin,
        category: opts.category,
        firstName: opts.firstName,
        lastName: opts.lastName,
        picture: opts.picture,
      };
      if (Object.values(edit).every((v) => v === undefined)) {
        throw new UsageError("nothing to change: give at least one of --price, --rank, ...");
      }
      const r = await withDb(cmd, (h) => setRacer(h.db, id, edit, currentActor()));
      const name = `${r.racer.firstName} ${r.racer.lastName}`;
      console.log(
        inert(
          r.changes.length === 0
            ? `Racer ${id} (${name}) already was so; nothing changed.`
            : `Racer ${id} (${name}): ${changeText(r.changes)}.`,
        ),
      );
    });
}
