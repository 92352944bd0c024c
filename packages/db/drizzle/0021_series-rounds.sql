-- A series' rounds are numbered explicitly (docs/decisions/0140): a season advances from round n
-- to round n + 1, whatever start times an admin has set since. Existing rounds take their
-- number from today's order (start time, then id), which is the order advances used so far.
ALTER TABLE "events" ADD COLUMN "round" integer;--> statement-breakpoint
UPDATE "events" e SET "round" = o.n
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "series" ORDER BY "starts_at", "id")::int AS n
  FROM "events" WHERE "series" <> ''
) o
WHERE e."id" = o."id";--> statement-breakpoint
CREATE UNIQUE INDEX "events_series_round_key" ON "events" USING btree ("series","round");--> statement-breakpoint
-- A round added to a series without a number comes after the series' last round.
CREATE FUNCTION "events_number_round"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."round" IS NULL AND NEW."series" <> '' THEN
    PERFORM pg_advisory_xact_lock(hashtext('events_number_round:' || NEW."series"));
    SELECT coalesce(max("round"), 0) + 1 INTO NEW."round" FROM "events" WHERE "series" = NEW."series";
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "events_number_round" BEFORE INSERT ON "events"
FOR EACH ROW EXECUTE FUNCTION "events_number_round"();
