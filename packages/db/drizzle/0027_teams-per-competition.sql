-- One team per player per competition (docs/decisions/0157). A player's teams of a competition's
-- rounds become one team: the one of the latest round they have a team in (the team they play on
-- with, carried and edited). The racers of a team are people, so the team plays every round
-- through the racers' entries there and a new round copies nothing. What each earlier round
-- played is in the frozen tables already; the earlier teams themselves are kept, as they were, in
-- teams_before_0027 (nothing is lost), then removed.
CREATE TABLE "teams_before_0027" (
	"team_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"version" integer NOT NULL,
	"draft" boolean NOT NULL,
	"budget" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"racer_id" integer,
	"slot" integer,
	"price_paid" integer
);--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "competition_id" integer;--> statement-breakpoint
UPDATE "teams" t SET "competition_id" = e."competition_id" FROM "events" e WHERE e."id" = t."event_id";--> statement-breakpoint
WITH ranked AS (
  SELECT t."id", row_number() OVER (
    PARTITION BY t."user_id", t."competition_id"
    ORDER BY e."round" DESC NULLS LAST, e."starts_at" DESC, e."id" DESC) AS n
  FROM "teams" t JOIN "events" e ON e."id" = t."event_id"
)
INSERT INTO "teams_before_0027"
SELECT t."id", t."user_id", t."event_id", t."version", t."draft", t."budget",
  t."created_at", t."updated_at", tr."racer_id", tr."slot", tr."price_paid"
FROM "teams" t JOIN ranked r ON r."id" = t."id" AND r.n > 1
LEFT JOIN "team_racers" tr ON tr."team_id" = t."id";--> statement-breakpoint
DELETE FROM "teams" t USING "teams_before_0027" b WHERE b."team_id" = t."id";--> statement-breakpoint
-- Slots by person: the racer's entry names them.
DROP TRIGGER IF EXISTS "team_racers_price_paid" ON "team_racers";--> statement-breakpoint
DROP FUNCTION IF EXISTS "team_racers_price_paid"();--> statement-breakpoint
ALTER TABLE "team_racers" ADD COLUMN "person_id" integer;--> statement-breakpoint
UPDATE "team_racers" tr SET "person_id" = r."person_id" FROM "racers" r WHERE r."id" = tr."racer_id";--> statement-breakpoint
ALTER TABLE "team_racers" DROP CONSTRAINT "team_racers_racer_id_racers_id_fk";--> statement-breakpoint
ALTER TABLE "teams" DROP CONSTRAINT "teams_event_id_events_id_fk";--> statement-breakpoint
DROP INDEX "team_racers_racer_idx";--> statement-breakpoint
DROP INDEX "teams_user_event_key";--> statement-breakpoint
DROP INDEX "teams_event_idx";--> statement-breakpoint
ALTER TABLE "team_racers" DROP CONSTRAINT "team_racers_team_id_racer_id_pk";--> statement-breakpoint
ALTER TABLE "team_racers" ALTER COLUMN "price_paid" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "team_racers" ALTER COLUMN "person_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "team_racers" ADD CONSTRAINT "team_racers_team_id_person_id_pk" PRIMARY KEY("team_id","person_id");--> statement-breakpoint
ALTER TABLE "teams" ALTER COLUMN "competition_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "team_racers" ADD CONSTRAINT "team_racers_person_id_racer_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."racer_people"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_competition_id_competitions_id_fk" FOREIGN KEY ("competition_id") REFERENCES "public"."competitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_racers_person_idx" ON "team_racers" USING btree ("person_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_user_competition_key" ON "teams" USING btree ("user_id","competition_id");--> statement-breakpoint
CREATE INDEX "teams_competition_idx" ON "teams" USING btree ("competition_id");--> statement-breakpoint
ALTER TABLE "teams_before_0027" ADD CONSTRAINT "teams_before_0027_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "teams_before_0027_user_idx" ON "teams_before_0027" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "team_racers" DROP COLUMN "racer_id";--> statement-breakpoint
ALTER TABLE "teams" DROP COLUMN "event_id";--> statement-breakpoint
ALTER TABLE "teams" DROP COLUMN "draft";
