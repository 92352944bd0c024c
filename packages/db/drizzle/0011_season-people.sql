CREATE TABLE "racer_people" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "racer_people_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"series" text NOT NULL,
	"name_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "racers" ADD COLUMN "person_id" integer;--> statement-breakpoint
ALTER TABLE "team_racers" ADD COLUMN "price_paid" integer;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "draft" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "racers" ADD CONSTRAINT "racers_person_id_racer_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."racer_people"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "racers_game_person_key" ON "racers" USING btree ("game_id","person_id");--> statement-breakpoint
CREATE INDEX "racers_person_idx" ON "racers" USING btree ("person_id");--> statement-breakpoint
-- One person per racer name within a series, for the racers that exist (round 1): no entry lost.
INSERT INTO "racer_people" ("series", "name_key")
SELECT DISTINCT e."series", r."name_key" FROM "racers" r JOIN "events" e ON e."id" = r."game_id";--> statement-breakpoint
UPDATE "racers" r SET "person_id" = p."id"
FROM "events" e, "racer_people" p
WHERE e."id" = r."game_id" AND p."series" = e."series" AND p."name_key" = r."name_key";--> statement-breakpoint
ALTER TABLE "racers" ALTER COLUMN "person_id" SET NOT NULL;--> statement-breakpoint
-- Saved teams bought their racers at today's prices: that is what they paid.
UPDATE "team_racers" tr SET "price_paid" = r."price" FROM "racers" r WHERE r."id" = tr."racer_id";--> statement-breakpoint
ALTER TABLE "team_racers" ALTER COLUMN "price_paid" SET NOT NULL;--> statement-breakpoint
-- Every insert path (CSV import, seed, season advance) gets its person without knowing about
-- people: an entry of the same series with the same name key (the newest one whose person has no
-- other entry in this round), else a new person.
CREATE FUNCTION "racers_link_person"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."person_id" IS NOT NULL THEN
    RETURN NEW;
  END IF;
  SELECT r."person_id" INTO NEW."person_id"
  FROM "racers" r
  WHERE r."name_key" = NEW."name_key"
    AND r."game_id" IN (
      SELECT o."id" FROM "events" o JOIN "events" n ON n."series" = o."series"
      WHERE n."id" = NEW."game_id")
    AND NOT EXISTS (
      SELECT 1 FROM "racers" x
      WHERE x."game_id" = NEW."game_id" AND x."person_id" = r."person_id"
        AND x."name_key" <> NEW."name_key")
  ORDER BY r."game_id" DESC
  LIMIT 1;
  IF NEW."person_id" IS NULL THEN
    INSERT INTO "racer_people" ("series", "name_key")
    SELECT coalesce((SELECT "series" FROM "events" WHERE "id" = NEW."game_id"), ''), NEW."name_key"
    RETURNING "id" INTO NEW."person_id";
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "racers_link_person" BEFORE INSERT ON "racers"
FOR EACH ROW EXECUTE FUNCTION "racers_link_person"();--> statement-breakpoint
-- A slot inserted without a price paid was bought now, at the racer's current price.
CREATE FUNCTION "team_racers_price_paid"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."price_paid" IS NULL THEN
    SELECT "price" INTO NEW."price_paid" FROM "racers" WHERE "id" = NEW."racer_id";
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "team_racers_price_paid" BEFORE INSERT ON "team_racers"
FOR EACH ROW EXECUTE FUNCTION "team_racers_price_paid"();
