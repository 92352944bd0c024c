-- Captains (docs/decisions/0168): a team names one of its racers (as a person) captain where its
-- competition's rules have captains, and each round's freeze keeps that round's captain entry.
-- Both columns start empty: no team had a captain, and no frozen round counts one.
ALTER TABLE "teams" ADD COLUMN "captain_person_id" integer;--> statement-breakpoint
ALTER TABLE "frozen_teams" ADD COLUMN "captain_racer_id" integer;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_captain_person_id_racer_people_id_fk" FOREIGN KEY ("captain_person_id") REFERENCES "public"."racer_people"("id") ON DELETE no action ON UPDATE no action;