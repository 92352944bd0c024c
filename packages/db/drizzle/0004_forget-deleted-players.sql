-- frozen_team_racers and event_scores carry no foreign keys (they are written a million rows at
-- a time by the scoring), so a deleted player's rows are removed here, as ON DELETE CASCADE did.
-- Joining through events lets both deletes use the (event_id, user_id, ...) primary keys.
CREATE OR REPLACE FUNCTION scoring_forget_deleted_users() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM frozen_team_racers f USING gone g, events e
    WHERE f.event_id = e.id AND f.user_id = g.id;
  DELETE FROM event_scores s USING gone g, events e
    WHERE s.event_id = e.id AND s.user_id = g.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_forget_scores
  AFTER DELETE ON users
  REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION scoring_forget_deleted_users();
