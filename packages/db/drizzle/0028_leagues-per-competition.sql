-- A league belongs to a competition (docs/decisions/0158). Today's leagues play the competition
-- being played now: the one of the earliest open round not yet settled, else of the latest settled round, else
-- the newest.
ALTER TABLE "leagues" ADD COLUMN "competition_id" integer;--> statement-breakpoint
UPDATE "leagues" SET "competition_id" = coalesce(
  (SELECT "competition_id" FROM "events" WHERE "status" = 'open' AND "settled_at" IS NULL ORDER BY "starts_at", "id" LIMIT 1),
  (SELECT "competition_id" FROM "events" WHERE "settled_at" IS NOT NULL ORDER BY "starts_at" DESC, "id" DESC LIMIT 1),
  (SELECT max("id") FROM "competitions"));--> statement-breakpoint
ALTER TABLE "leagues" ALTER COLUMN "competition_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "leagues" ADD COLUMN "renewed_from" integer;--> statement-breakpoint
ALTER TABLE "leagues" ADD CONSTRAINT "leagues_competition_id_competitions_id_fk" FOREIGN KEY ("competition_id") REFERENCES "public"."competitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leagues" ADD CONSTRAINT "leagues_renewed_from_leagues_id_fk" FOREIGN KEY ("renewed_from") REFERENCES "public"."leagues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leagues_competition_idx" ON "leagues" USING btree ("competition_id");--> statement-breakpoint
ALTER TABLE "leagues" ADD CONSTRAINT "leagues_renewed_from_unique" UNIQUE("renewed_from");