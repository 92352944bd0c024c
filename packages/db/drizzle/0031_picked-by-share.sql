-- The share of a round's teams holding each racer ("picked by 23 %", docs/decisions/0160): the
-- counts live on the round's entries (racers.picked_by, migration 0030); this table says how
-- many teams they were counted from and when. Rounds frozen before now are counted here, once.
CREATE TABLE "event_picks" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"teams" integer NOT NULL,
	"counted_at" timestamp with time zone NOT NULL,
	"final" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_picks" ADD CONSTRAINT "event_picks_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
UPDATE "racers" r SET "picked_by" = coalesce(c.n, 0)
FROM "racers" x
LEFT JOIN (
  SELECT "event_id", "racer_id", count(*)::int AS n FROM "frozen_team_racers" GROUP BY 1, 2
) c ON c."event_id" = x."game_id" AND c."racer_id" = x."id"
WHERE r."id" = x."id" AND r."picked_by" IS NULL
  AND x."game_id" IN (SELECT "id" FROM "events" WHERE "frozen_at" IS NOT NULL);
--> statement-breakpoint
INSERT INTO "event_picks" ("event_id", "teams", "counted_at", "final")
SELECT e."id", (SELECT count(*)::int FROM "frozen_teams" f WHERE f."event_id" = e."id"), now(), true
FROM "events" e WHERE e."frozen_at" IS NOT NULL;
