-- Confirming a new account's e-mail address before it can accept invitations, join leagues or
-- receive reminders (docs/decisions/0151). Accounts made before the rule keep every right they
-- had: they count as confirmed from their sign-up.
CREATE TABLE "email_confirmation_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_confirmation_tokens" ADD CONSTRAINT "email_confirmation_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_confirmation_tokens_user_idx" ON "email_confirmation_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "email_confirmation_tokens_expires_idx" ON "email_confirmation_tokens" USING btree ("expires_at");--> statement-breakpoint
UPDATE "users" SET "email_confirmed_at" = "created_at";