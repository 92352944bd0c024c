-- League places per competition (docs/decisions/0162): a page of the league ranking reads a key
-- range of league_places, a partition per competition that the settlement writes fresh and swaps
-- in. The ranking columns of `leagues` lose their index, so the settlement's update of every
-- league is heap-only (with room left on each page for it).
CREATE TABLE "league_places" (
	"competition_id" integer NOT NULL,
	"place" integer NOT NULL,
	"league_id" integer NOT NULL,
	CONSTRAINT "league_places_competition_id_place_pk" PRIMARY KEY("competition_id","place")
) PARTITION BY LIST ("competition_id");
--> statement-breakpoint
CREATE TABLE "league_places_default" PARTITION OF "league_places" DEFAULT;
--> statement-breakpoint
INSERT INTO "league_places" ("competition_id", "place", "league_id")
SELECT "competition_id", "ranking", "id" FROM "leagues" WHERE "ranking" IS NOT NULL;
--> statement-breakpoint
DROP INDEX "leagues_ranking_idx";
--> statement-breakpoint
ALTER TABLE "leagues" SET (fillfactor = 50);
