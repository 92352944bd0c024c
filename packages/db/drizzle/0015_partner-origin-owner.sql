-- An origin belongs to one partner (docs/decisions/0085): a write that gives a partner an origin
-- another partner lists is refused. Only newly added origins are checked, so a rename or an
-- edit of a partner that shares an origin from before this rule still works.
CREATE OR REPLACE FUNCTION partners_origin_owner() RETURNS trigger AS $$
DECLARE
  taken text;
  owner text;
BEGIN
  -- Serialises origin claims: two concurrent writes cannot both take one origin.
  PERFORM pg_advisory_xact_lock(hashtext('partners.origins'));
  SELECT o, p.name INTO taken, owner
  FROM unnest(NEW.origins) AS o
  JOIN partners p ON p.id <> NEW.id AND o = ANY (p.origins)
  WHERE TG_OP = 'INSERT' OR NOT (o = ANY (coalesce(OLD.origins, '{}')))
  LIMIT 1;
  IF taken IS NOT NULL THEN
    RAISE EXCEPTION 'The origin % already belongs to %.', taken, owner
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'partners_origin_owner';
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER partners_origin_owner BEFORE INSERT OR UPDATE OF origins ON partners
  FOR EACH ROW EXECUTE FUNCTION partners_origin_owner();
