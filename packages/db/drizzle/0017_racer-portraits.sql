CREATE TABLE "racer_portraits" (
	"picture" text PRIMARY KEY NOT NULL,
	"thumb" "bytea" NOT NULL,
	"large" "bytea" NOT NULL,
	"etag" text NOT NULL,
	"source_name" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
