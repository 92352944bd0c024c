CREATE TABLE "season_standings" (
	"position" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"points" integer NOT NULL,
	"rank" integer NOT NULL,
	"previous_rank" integer,
	"previous_points" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "users_ranking_position_idx";