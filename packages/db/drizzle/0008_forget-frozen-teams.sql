-- A deleted player's rows leave every scoring table, frozen_teams included (see 0004, 0006).
CREATE OR REPLACE FUNCTION scoring_forget_deleted_users() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM frozen_team_racers f USING gone g, events e
    WHERE f.event_id = e.id AND f.user_id = g.id;
  DELETE FROM frozen_teams f USING gone g, events e
    WHERE f.event_id = e.id AND f.user_id = g.id;
  DELETE FROM event_scores s USING gone g, events e
    WHERE s.event_id = e.id AND s.user_id = g.id;
  DELETE FROM season_standings s USING gone g WHERE s.user_id = g.id;
  RETURN NULL;
END
$$;
