CREATE TABLE "partner_daily_stats" (
	"partner_id" integer NOT NULL,
	"day" date NOT NULL,
	"widget_loads" integer DEFAULT 0 NOT NULL,
	"api_calls" integer DEFAULT 0 NOT NULL,
	"sign_ins" integer DEFAULT 0 NOT NULL,
	"team_saves" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "partner_daily_stats_partner_id_day_pk" PRIMARY KEY("partner_id","day")
);
--> statement-breakpoint
ALTER TABLE "partner_daily_stats" ADD CONSTRAINT "partner_daily_stats_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;