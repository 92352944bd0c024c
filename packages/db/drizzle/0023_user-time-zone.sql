-- The player's time zone, for the dates of their e-mails (docs/decisions/0144): null, so UTC,
-- until their browser has said it.
ALTER TABLE "users" ADD COLUMN "time_zone" text;