CREATE TABLE "ranking_changes" (
	"scope" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ranking_versions" (
	"scope" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "ranking_versions" ("scope") VALUES ('players'), ('leagues');
--> statement-breakpoint
-- Notes, once per transaction and scope, that what a ranking shows is changing. The bump itself
-- waits for the commit (below), so readers never see a new version before the new rows.
CREATE FUNCTION "ranking_note_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s text;
BEGIN
  FOREACH s IN ARRAY TG_ARGV LOOP
    IF coalesce(current_setting('gravity.ranking_changed_' || s, true), '') <> '1' THEN
      PERFORM set_config('gravity.ranking_changed_' || s, '1', true);
      INSERT INTO ranking_changes (scope) VALUES (s);
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Runs at commit: the version row is locked for the end of the transaction only, so a league
-- joined during a long settlement does not wait for it.
CREATE FUNCTION "ranking_apply_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ranking_versions SET version = version + 1 WHERE scope = NEW.scope;
  DELETE FROM ranking_changes WHERE scope = NEW.scope;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ranking_changes_apply" AFTER INSERT ON "ranking_changes"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "ranking_apply_change"();
--> statement-breakpoint
-- Events: settlement (settled_at), names, status, schedule, a season's advance. A few rows.
CREATE TRIGGER "events_ranking_change" AFTER INSERT OR UPDATE OR DELETE ON "events"
  FOR EACH ROW EXECUTE FUNCTION "ranking_note_change"('players', 'leagues');
--> statement-breakpoint
CREATE TRIGGER "leagues_ranking_change" AFTER INSERT OR DELETE ON "leagues"
  FOR EACH ROW EXECUTE FUNCTION "ranking_note_change"('leagues');
--> statement-breakpoint
-- Per statement: the settlement updates every league's place in one statement.
CREATE TRIGGER "leagues_ranking_update" AFTER UPDATE OF "name", "total_points", "ranking", "previous_ranking" ON "leagues"
  FOR EACH STATEMENT EXECUTE FUNCTION "ranking_note_change"('leagues');
--> statement-breakpoint
CREATE TRIGGER "users_ranking_delete" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "ranking_note_change"('players', 'leagues');
--> statement-breakpoint
CREATE TRIGGER "users_ranking_rename" AFTER UPDATE OF "username" ON "users"
  FOR EACH ROW WHEN (OLD."username" IS DISTINCT FROM NEW."username")
  EXECUTE FUNCTION "ranking_note_change"('players', 'leagues');
