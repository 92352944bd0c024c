-- A team's own budget (docs/decisions/0141): 1,000,000 to start, moved by what each sale gains or
-- loses against the price paid. Every existing team starts from 1,000,000, as before.
ALTER TABLE "teams" ADD COLUMN "budget" integer DEFAULT 1000000 NOT NULL;
