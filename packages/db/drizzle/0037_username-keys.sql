-- Username keys beside the settlement's rows (docs/decisions/0172): players on equal points are
-- ordered by username, and a copy of the key in the frozen teams, the rounds' scores and the
-- competitions' tables lets the settlement sort them without joining a million players.
-- Usernames never change, so the copies never go stale. Rows stored before are filled in here.
ALTER TABLE "event_scores" ADD COLUMN "username_key" text;--> statement-breakpoint
ALTER TABLE "frozen_teams" ADD COLUMN "username_key" text;--> statement-breakpoint
ALTER TABLE "season_standings" ADD COLUMN "username_key" text;--> statement-breakpoint
UPDATE "frozen_teams" f SET "username_key" = u."username_key" FROM "users" u WHERE u."id" = f."user_id";--> statement-breakpoint
UPDATE "event_scores" s SET "username_key" = u."username_key" FROM "users" u WHERE u."id" = s."user_id";--> statement-breakpoint
UPDATE "season_standings" s SET "username_key" = u."username_key" FROM "users" u WHERE u."id" = s."user_id";
