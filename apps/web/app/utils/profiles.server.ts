/** Loaders of the player and racer pages: public, read-only, frozen teams only. */
import { getPlayerProfile, getRacerProfile } from "@game/db";
import type { AppLoadContext } from "@remix-run/node";
import { shortEventLabel } from "~/components/charts/labels";
import { toBackdropGame } from "~/components/game-backdrop";
import { getCurrentGame } from "./game.server";

function notFound(): Response {
  return new Response("Not Found", { status: 404 });
}

export async function loadPlayerPage(request: Request, context: AppLoadContext, username: string) {
  const [profile, game] = await Promise.all([
    getPlayerProfile(context.db, username.slice(0, 64)),
    getCurrentGame(request, context),
  ]);
  if (!profile) throw notFound();
  return {
    game: toBackdropGame(game),
    player: {
      username: profile.username,
      points: profile.points,
      ranking: profile.ranking,
      previousRanking: profile.previousRanking,
    },
    events: profile.events.map((e) => ({
      id: e.eventId,
      name: e.eventName,
      label: shortEventLabel(e.eventName),
      points: e.points,
      rank: e.rank,
      players: e.players,
      team: (profile.teams[e.eventId] ?? []).map((r) => ({
        id: r.racerId,
        firstName: r.firstName,
        lastName: r.lastName,
        category: r.category,
        picture: r.picture,
        price: r.price,
        rank2024: r.rank2024,
        result: r.status === "finished" ? r.position : r.status,
        points: r.points,
      })),
    })),
  };
}

export async function loadRacerPage(request: Request, context: AppLoadContext, idParam: string) {
  const id = /^\d{1,10}$/.test(idParam) ? Number(idParam) : Number.NaN;
  const [racer, game] = await Promise.all([
    Number.isSafeInteger(id) ? getRacerProfile(context.db, id) : Promise.resolve(null),
    getCurrentGame(request, context),
  ]);
  if (!racer) throw notFound();
  return {
    game: toBackdropGame(game),
    racer: {
      id: racer.id,
      firstName: racer.firstName,
      lastName: racer.lastName,
      category: racer.category,
      origin: racer.origin,
      picture: racer.picture,
      rank2024: racer.rank2024,
      price: racer.price,
    },
    events: racer.events.map((e) => ({
      id: e.eventId,
      name: e.eventName,
      label: shortEventLabel(e.eventName),
      settled: e.settled,
      result: e.status === "finished" ? e.position : e.status,
      points: e.points,
      pickedBy: e.pickedBy,
      teams: e.teams,
    })),
  };
}
