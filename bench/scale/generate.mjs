// Bulk generation of a big season inside the database itself (INSERT ... SELECT over
// generate_series): players, one team of six per player for the competition of round 1 (racers
// held as people, at round 1's prices), leagues with members.
// `exec(text)` runs one SQL statement; the same statements run on PostgreSQL and on PGlite.
//
// Bulk-load practice: secondary indexes are dropped and rebuilt afterwards, and foreign-key
// triggers are off during the load (session_replication_role = replica). The data is valid
// (every id points at a real row), so nothing is skipped that would have failed.

/** Indexes of `tables` that no constraint needs: dropped for the load, rebuilt after. */
async function secondaryIndexes(query, tables) {
  const list = tables.map((t) => `'${t}'`).join(", ");
  return query(`
    select i.relname as indexname, pg_get_indexdef(i.oid) as indexdef
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = 'public' and t.relname in (${list})
      and not exists (select 1 from pg_constraint c where c.conindid = i.oid)`);
}

export async function generate({ exec, query }, { players, leagues, eventId = 5, log = () => {} }) {
  const tables = ["accounts", "users", "teams", "team_racers", "leagues", "league_members"];
  const indexes = await secondaryIndexes(query, tables);
  const step = async (label, text) => {
    const t0 = performance.now();
    await exec(text);
    log(label, performance.now() - t0);
  };
  await exec("set session_replication_role = replica");
  for (const { indexname } of indexes) await exec(`drop index if exists "${indexname}"`);

  await step(
    `${players.toLocaleString("en-US")} accounts`,
    `insert into accounts (email, password_hash)
     select 'player' || g || '@bench.example', 'bench:unusable' from generate_series(1, ${players}) g`,
  );
  await step(
    "players",
    `insert into users (id, email, username, username_key, email_confirmed_at)
     select id, email, split_part(email, '@', 1), split_part(email, '@', 1), now() from accounts`,
  );
  const competition = `(select competition_id from events where id = ${eventId})`;
  await step(
    "teams",
    `insert into teams (user_id, competition_id) select id, ${competition} from users`,
  );
  // Six distinct racers per team: two Pro Women, one junior, three Pro Men. random()^2 favours
  // the first racers of each list (the best ranked), as real picks do.
  await step(
    "team racers (6 per team)",
    `with pools as (
       select
         (select array_agg(id order by rank2024 = 0, rank2024, id) from racers
           where game_id = ${eventId} and category = 'Pro Men') as pm,
         (select array_agg(id order by rank2024 = 0, rank2024, id) from racers
           where game_id = ${eventId} and category = 'Pro Women') as pw,
         (select array_agg(id order by rank2024 = 0, rank2024, id) from racers
           where game_id = ${eventId} and category in ('17-18 Men', '17-18 Women')) as jr
     ), draws as (
       select t.id,
         floor(random() ^ 2 * cardinality(p.pw))::int as w1,
         floor(random() * (cardinality(p.pw) - 1))::int as w2,
         floor(random() ^ 2 * cardinality(p.jr))::int as j,
         floor(random() ^ 2 * cardinality(p.pm))::int as m1,
         floor(random() * (cardinality(p.pm) - 1))::int as m2,
         floor(random() * (cardinality(p.pm) - 2))::int as m3
       from teams t cross join pools p
       where t.competition_id = ${competition}
     )
     insert into team_racers (team_id, person_id, slot, price_paid)
     select d.id, r.person_id, v.slot, r.price
     from draws d cross join pools p
     cross join lateral (values
       (0, p.pw[1 + d.w1]),
       (1, p.pw[1 + (d.w1 + 1 + d.w2) % cardinality(p.pw)]),
       (2, p.jr[1 + d.j]),
       (3, p.pm[1 + d.m1]),
       (4, p.pm[1 + (d.m1 + 1 + d.m2) % cardinality(p.pm)]),
       (5, p.pm[1 + (d.m1 + 1 + case when d.m3 >= d.m2 then d.m3 + 1 else d.m3 end) % cardinality(p.pm)])
     ) as v(slot, racer_id)
     join racers r on r.id = v.racer_id`,
  );
  await step(
    `${leagues.toLocaleString("en-US")} leagues`,
    `insert into leagues (name, owner_id, join_code, competition_id)
     select 'League ' || g, g, 'bench-' || g, ${competition} from generate_series(1, ${leagues}) g`,
  );
  await step(
    "league members (owners + one league per other player)",
    `insert into league_members (league_id, user_id)
     select id, owner_id from leagues
     union all
     select 1 + floor(random() * ${leagues})::int, u.id from users u where u.id > ${leagues}`,
  );
  const t0 = performance.now();
  for (const { indexdef } of indexes) await exec(indexdef);
  log(`rebuilt ${indexes.length} indexes`, performance.now() - t0);
  await exec("set session_replication_role = origin");
  const t1 = performance.now();
  await exec("analyze");
  log("analyze", performance.now() - t1);
}

/**
 * An official results file for the event: every racer, places per category in random order,
 * about one in ten DNF and one DNS per category. `swapTop` swaps 1st and 2nd of each category
 * (the "corrected results" case).
 */
export function resultsCsv(racers, { seed = 1, swapTop = false } = {}) {
  let state = seed;
  const rand = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const lines = ["Position,First Name,Last Name,Category"];
  const byCategory = new Map();
  for (const r of racers) byCategory.set(r.category, [...(byCategory.get(r.category) ?? []), r]);
  for (const [category, list] of byCategory) {
    const order = [...list].sort(() => rand() - 0.5);
    if (swapTop && order.length > 1) [order[0], order[1]] = [order[1], order[0]];
    const dnf = Math.max(1, Math.floor(order.length / 10));
    order.forEach((r, i) => {
      let position = String(i + 1);
      if (i === order.length - 1) position = "DNS";
      else if (i >= order.length - 1 - dnf) position = "DNF";
      const cell = (s) => (/[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
      lines.push(`${position},${cell(r.firstName)},${cell(r.lastName)},${category}`);
    });
  }
  return lines.join("\n");
}
