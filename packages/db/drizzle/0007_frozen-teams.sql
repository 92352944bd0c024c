CREATE TABLE "frozen_teams" (
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"racer_ids" integer[] NOT NULL,
	CONSTRAINT "frozen_teams_event_id_user_id_pk" PRIMARY KEY("event_id","user_id")
);
