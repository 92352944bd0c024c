-- Scheduled jobs (freezing teams at the lock, deadline reminders, maintenance) run once per tick
-- across every app process and machine: a process claims a tick by inserting its row; whoever
-- inserts first runs it, the others see the conflict and skip (docs/decisions/0130).
-- Kept out of the drizzle schema on purpose: only services/jobs.ts reads and writes it, in SQL.
CREATE TABLE "job_runs" (
	"job" text NOT NULL,
	"tick" timestamp with time zone NOT NULL,
	"owner" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"ms" integer,
	"error" text,
	CONSTRAINT "job_runs_job_tick_pk" PRIMARY KEY("job","tick")
);
