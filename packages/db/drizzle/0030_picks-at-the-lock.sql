-- How many frozen teams hold each round entry, counted once at the round's freeze (its frozen
-- teams never change): the settlement and the racer pages read it instead of counting every
-- frozen team again. Rounds frozen before this migration are counted at their next settlement.
ALTER TABLE "racers" ADD COLUMN "picked_by" integer;
--> statement-breakpoint
-- Ranking pages name their competition and offer the others: a competition created, renamed or
-- archived changes what they show (cached pages key on these versions, migration 0016).
CREATE TRIGGER "competitions_ranking_change" AFTER INSERT OR UPDATE OR DELETE ON "competitions"
  FOR EACH ROW EXECUTE FUNCTION "ranking_note_change"('players', 'leagues');
