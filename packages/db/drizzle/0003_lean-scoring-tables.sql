ALTER TABLE "event_scores" DROP CONSTRAINT "event_scores_event_id_events_id_fk";
--> statement-breakpoint
ALTER TABLE "event_scores" DROP CONSTRAINT "event_scores_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "frozen_team_racers" DROP CONSTRAINT "frozen_team_racers_event_id_events_id_fk";
--> statement-breakpoint
ALTER TABLE "frozen_team_racers" DROP CONSTRAINT "frozen_team_racers_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "frozen_team_racers" DROP CONSTRAINT "frozen_team_racers_racer_id_racers_id_fk";
--> statement-breakpoint
DROP INDEX "users_ranking_idx";--> statement-breakpoint
DROP INDEX "event_scores_rank_idx";--> statement-breakpoint
DROP INDEX "event_scores_user_idx";--> statement-breakpoint
DROP INDEX "frozen_team_racers_racer_idx";