-- Every settlement rewrites the score columns of every player and league member. With room left
-- on each page and no index on those columns, PostgreSQL updates them in place (heap-only), about
-- six times faster than writing new index entries for every row (docs/benchmarks.md, Scale).
-- Applies to pages written from now on.
ALTER TABLE "users" SET (fillfactor = 50);
--> statement-breakpoint
ALTER TABLE "league_members" SET (fillfactor = 50);
--> statement-breakpoint
-- A deleted player leaves the stored season table too (it has no foreign keys, see 0004).
CREATE OR REPLACE FUNCTION scoring_forget_deleted_users() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM frozen_team_racers f USING gone g, events e
    WHERE f.event_id = e.id AND f.user_id = g.id;
  DELETE FROM event_scores s USING gone g, events e
    WHERE s.event_id = e.id AND s.user_id = g.id;
  DELETE FROM season_standings s USING gone g WHERE s.user_id = g.id;
  RETURN NULL;
END
$$;
