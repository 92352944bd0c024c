-- The bench rider (docs/decisions/0169): a team's racer in the slot after its starters, where
-- the competition's rules have a bench. Each round's freeze keeps that round's bench entry apart
-- from the starters (`racer_ids`); no round frozen before now had one.
ALTER TABLE "frozen_teams" ADD COLUMN "bench_racer_id" integer;