-- Decision 0151: the league ranking places only leagues of two members or more. Leagues of one
-- placed at a settlement before that rule lose their place now (not at the next results), and
-- the others close ranks, ties kept.
UPDATE "leagues" l SET "ranking" = NULL
WHERE l."ranking" IS NOT NULL
  AND (SELECT count(*) FROM "league_members" m WHERE m."league_id" = l."id") < 2;--> statement-breakpoint
UPDATE "leagues" l SET "ranking" = o.n
FROM (
  SELECT "id", rank() OVER (ORDER BY "ranking")::int AS n FROM "leagues" WHERE "ranking" IS NOT NULL
) o
WHERE l."id" = o."id" AND l."ranking" IS DISTINCT FROM o.n;
