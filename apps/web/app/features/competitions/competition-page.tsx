/**
 * A competition's page (/competitions/:slug): what it is, its podium once it is over, its rounds,
 * the top of its table and its rules in words.
 */
import { PlayerRankings } from "@game/widgets/player-rankings";
import { Link } from "@remix-run/react";
import { count } from "~/components/charts/labels";
import { GameBackdrop } from "~/features/game/game-backdrop";
import { PodiumTable } from "~/features/rankings/podium";
import { competitionRankingHref, HALL_OF_FAME } from "~/features/rankings/ranking-links";
import { RoundList, RulesList } from "./competition-list";
import { disciplineAndSeason, STATE_LABELS } from "./competition-text";
import type { loadCompetitionPage } from "./competitions.server";

type CompetitionPageData = NonNullable<Awaited<ReturnType<typeof loadCompetitionPage>>>;

export function Competition({ competition: c, standings, podium, timeZone }: CompetitionPageData) {
  const fullRanking = competitionRankingHref(c.slug);
  return (
    <GameBackdrop
      game={{ id: c.id, name: c.name, cover: c.cover, logo: c.logo }}
      title={c.name}
      subtitle={
        <>
          {disciplineAndSeason(c)}{" "}
          <span className="competition-state" data-state={c.state}>
            {STATE_LABELS[c.state]}
          </span>
        </>
      }
    >
      <div className="competition-page">
        {c.description ? (
          <section className="panel" aria-label="About this competition">
            <p className="competition-description">{c.description}</p>
          </section>
        ) : null}
        {podium && podium.length > 0 ? (
          <section className="panel" aria-labelledby="podium-title">
            <h2 id="podium-title">Podium</h2>
            <PodiumTable podium={podium} caption={`Final podium of ${c.name}`} hideCaption />
            <p className="muted">
              Every finished competition's podium: <Link to={HALL_OF_FAME}>Hall of Fame</Link>.
            </p>
          </section>
        ) : null}
        <section className="panel" aria-labelledby="rounds-title">
          <h2 id="rounds-title">Rounds</h2>
          <RoundList rounds={c.rounds} timeZone={timeZone} />
        </section>
        <section className="panel" aria-labelledby="standings-title">
          <h2 id="standings-title">Standings</h2>
          {standings.total === 0 ? (
            <p>
              No round of this competition has been scored yet: its table starts with the first
              results.
            </p>
          ) : (
            <>
              <PlayerRankings
                rows={standings.rows}
                renderLink={({ href, ...rest }) => <Link to={href} {...rest} />}
                playerHref={(p) => `/players/${encodeURIComponent(p.username ?? "")}`}
                caption={`${c.name}: the top ${count(standings.rows.length)} of ${count(standings.total)} players`}
                hideCaption
              />
              <p>
                <Link to={fullRanking}>Full ranking of {c.name}</Link>{" "}
                <span className="muted">({count(standings.total)} players)</span>
              </p>
            </>
          )}
        </section>
        <section className="panel" aria-labelledby="rules-title">
          <h2 id="rules-title">Rules</h2>
          <RulesList lines={c.rulesText} />
          <p className="muted">
            How points, prices and the lock work in detail: <Link to="/about">How it works</Link>.
          </p>
        </section>
        <p>
          <Link to="/#competitions">All competitions</Link>
        </p>
      </div>
    </GameBackdrop>
  );
}
