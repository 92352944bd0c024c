ALTER TABLE "users" ADD COLUMN "ranking_position" integer;--> statement-breakpoint
ALTER TABLE "event_scores" ADD COLUMN "position" integer;--> statement-breakpoint
CREATE INDEX "users_ranking_position_idx" ON "users" USING btree ("ranking_position");--> statement-breakpoint
CREATE INDEX "event_scores_position_idx" ON "event_scores" USING btree ("event_id","position");