/** `game-admin racers withdraw <id>` and `racers reinstate <id>`. */
import { setRacerWithdrawn } from "@game/db";
import { Command } from "commander";
import { currentActor, withDb } from "../../context.js";
import { positiveInt } from "../../errors.js";
import { inert } from "../../output.js";

/** `withdrawn` true: the withdraw command; false: reinstate. */
export function withdrawCommand(withdrawn: boolean): Command {
  const name = withdrawn ? "withdraw" : "reinstate";
  return new Command(name)
    .description(
      withdrawn
        ? "withdraw a racer from their round: kept for history, no longer pickable"
        : "let a withdrawn racer be picked again",
    )
    .argument("<id>", "racer id (see racers list)", positiveInt)
    .addHelpText("after", `\nExample:\n  $ game-admin racers ${name} 12`)
    .action(async (id: number, _opts: unknown, cmd: Command) => {
      const r = await withDb(cmd, (h) => setRacerWithdrawn(h.db, id, withdrawn, currentActor()));
      const who = `Racer ${id} (${r.racer.firstName} ${r.racer.lastName}, event ${r.racer.gameId})`;
      const teams = `${r.teamsHolding} ${r.teamsHolding === 1 ? "team holds" : "teams hold"} them`;
      const state = withdrawn ? "withdrawn" : "reinstated";
      console.log(
        inert(
          r.changed
            ? `${who} is ${state}; ${teams}${withdrawn && r.teamsHolding ? " and will see a notice" : ""}.`
            : `${who} already was ${withdrawn ? "withdrawn" : "starting"}.`,
        ),
      );
    });
}
