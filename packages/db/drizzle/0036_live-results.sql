-- Race day live (docs/decisions/0171): a round's results may be provisional (imported in pieces
-- while the race runs, settled as usual but labelled until the final import), and admin API
-- tokens let a timing system push them. Existing rounds are final: the default is false.
CREATE TABLE "admin_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "admin_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "admin_tokens_name_unique" UNIQUE("name"),
	CONSTRAINT "admin_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "provisional" boolean DEFAULT false NOT NULL;