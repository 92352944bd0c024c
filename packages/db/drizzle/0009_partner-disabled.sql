-- Partners an admin switched off keep their key and history but lose CORS and framing (docs/decisions/0063).
ALTER TABLE "partners" ADD COLUMN "disabled_at" timestamp with time zone;