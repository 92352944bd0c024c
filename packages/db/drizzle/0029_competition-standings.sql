-- Standings per competition (docs/decisions/0159): the season table becomes one table per
-- competition, partitions of season_standings by competition, and is the only place a
-- player's points and ranks are stored. A settlement writes its competition's partition fresh
-- and swaps it in (as event_scores per event, migration 0019); a finished competition keeps its
-- final table. The players' own copies (users.points, ranking, previous_ranking,
-- ranking_position) and the members' (league_members.score) go: pages read the standings.
ALTER TABLE "season_standings" RENAME TO "season_standings_before_0029";
--> statement-breakpoint
ALTER TABLE "season_standings_before_0029" RENAME CONSTRAINT "season_standings_pkey" TO "season_standings_before_0029_pkey";
--> statement-breakpoint
CREATE TABLE "season_standings" (
	"competition_id" integer NOT NULL,
	"position" integer NOT NULL,
	"user_id" integer NOT NULL,
	"points" integer NOT NULL,
	"rank" integer NOT NULL,
	"previous_rank" integer,
	"previous_points" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "season_standings_competition_id_position_pk" PRIMARY KEY("competition_id","position")
) PARTITION BY LIST ("competition_id");
--> statement-breakpoint
CREATE INDEX "season_standings_user_idx" ON "season_standings" USING btree ("competition_id","user_id");
--> statement-breakpoint
CREATE TABLE "season_standings_default" PARTITION OF "season_standings" DEFAULT;
--> statement-breakpoint
-- The stored table was the competition's of the latest settled round: it keeps its rows.
INSERT INTO "season_standings"
  ("competition_id", "position", "user_id", "points", "rank", "previous_rank", "previous_points")
SELECT (SELECT "competition_id" FROM "events" WHERE "settled_at" IS NOT NULL
          ORDER BY "starts_at" DESC, "id" DESC LIMIT 1),
  s."position", s."user_id", s."points", s."rank", s."previous_rank", s."previous_points"
FROM "season_standings_before_0029" s
WHERE EXISTS (SELECT 1 FROM "events" WHERE "settled_at" IS NOT NULL);
--> statement-breakpoint
-- Every other competition with settled rounds gets the final table its stored round scores make
-- (what its last settlement computed: totals, shared ranks, places by username, and the table
-- before its last round).
INSERT INTO "season_standings"
  ("competition_id", "position", "user_id", "points", "rank", "previous_rank", "previous_points")
WITH latest AS (
  SELECT DISTINCT ON ("competition_id") "competition_id", "id"
  FROM "events" WHERE "settled_at" IS NOT NULL
  ORDER BY "competition_id", "starts_at" DESC, "id" DESC
), totals AS (
  SELECT e."competition_id", es."user_id",
    sum(es."points")::int AS points,
    coalesce(sum(es."points") FILTER (WHERE es."event_id" <> l."id"), 0)::int AS previous,
    bool_or(es."event_id" <> l."id") AS had_previous
  FROM "event_scores" es
  JOIN "events" e ON e."id" = es."event_id" AND e."settled_at" IS NOT NULL
  JOIN latest l ON l."competition_id" = e."competition_id"
  WHERE e."competition_id" IS DISTINCT FROM (
    SELECT "competition_id" FROM "events" WHERE "settled_at" IS NOT NULL
    ORDER BY "starts_at" DESC, "id" DESC LIMIT 1)
  GROUP BY e."competition_id", es."user_id"
)
SELECT t."competition_id",
  row_number() OVER (PARTITION BY t."competition_id" ORDER BY t.points DESC, u."username_key" COLLATE "C", u."id")::int,
  t."user_id", t.points,
  rank() OVER (PARTITION BY t."competition_id" ORDER BY t.points DESC)::int,
  CASE WHEN t.had_previous
    THEN rank() OVER (PARTITION BY t."competition_id", t.had_previous ORDER BY t.previous DESC)::int END,
  t.previous
FROM totals t JOIN "users" u ON u."id" = t."user_id";
--> statement-breakpoint
DROP TABLE "season_standings_before_0029";
--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "points";
--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "ranking";
--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "previous_ranking";
--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "ranking_position";
--> statement-breakpoint
ALTER TABLE "league_members" DROP COLUMN "score";
--> statement-breakpoint
-- No settlement rewrites these rows any more: the room kept for heap-only updates (0006) goes.
ALTER TABLE "users" RESET (fillfactor);
--> statement-breakpoint
ALTER TABLE "league_members" RESET (fillfactor);
