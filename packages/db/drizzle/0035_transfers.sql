-- Transfers and the wildcard (docs/decisions/0170): each round's freeze counts a team's changes
-- against the competition's previous frozen round and keeps its transfer account; a team names
-- the round it plays its wildcard in. No round frozen before now limited transfers.
ALTER TABLE "teams" ADD COLUMN "wildcard_event_id" integer;--> statement-breakpoint
ALTER TABLE "frozen_teams" ADD COLUMN "transfer_changes" integer;--> statement-breakpoint
ALTER TABLE "frozen_teams" ADD COLUMN "transfer_cost" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "frozen_teams" ADD COLUMN "transfers_left" integer;--> statement-breakpoint
ALTER TABLE "frozen_teams" ADD COLUMN "wildcard" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_wildcard_event_id_events_id_fk" FOREIGN KEY ("wildcard_event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;