-- Each event's scores in a partition of their own (docs/decisions/0137): a settlement writes the
-- event's table fresh, indexes it once, and swaps it in at commit, leaving no dead rows behind.
-- The parent keeps the name, columns, key and index readers use; rows of events settled before
-- this migration sit in the default partition until their event is settled again.
ALTER TABLE "event_scores" RENAME TO "event_scores_before_0019";
--> statement-breakpoint
ALTER TABLE "event_scores_before_0019" RENAME CONSTRAINT "event_scores_event_id_user_id_pk" TO "event_scores_before_0019_pk";
--> statement-breakpoint
ALTER INDEX "event_scores_position_idx" RENAME TO "event_scores_before_0019_position_idx";
--> statement-breakpoint
CREATE TABLE "event_scores" (
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"rank" integer,
	"position" integer,
	CONSTRAINT "event_scores_event_id_user_id_pk" PRIMARY KEY("event_id","user_id")
) PARTITION BY LIST ("event_id");
--> statement-breakpoint
CREATE INDEX "event_scores_position_idx" ON "event_scores" USING btree ("event_id","position");
--> statement-breakpoint
CREATE TABLE "event_scores_default" PARTITION OF "event_scores" DEFAULT;
--> statement-breakpoint
INSERT INTO "event_scores" SELECT "event_id", "user_id", "points", "rank", "position" FROM "event_scores_before_0019";
--> statement-breakpoint
DROP TABLE "event_scores_before_0019";
