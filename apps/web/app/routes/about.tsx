import {
  BUDGET,
  LOCK_HOURS,
  MIN_AGE,
  MIN_FEMALE,
  MIN_JUNIOR,
  TEAM_SIZE,
} from "@game/core/constants";
import { lockTime } from "@game/core/events";
import { formatPrice } from "@game/core/format";
import {
  nextPrice,
  PRICE_BANDS,
  PRICE_MAX,
  PRICE_MIN,
  PRICE_STEP,
  type PricingResult,
} from "@game/core/pricing";
import { POINTS } from "@game/core/scoring";
import { sellingPrice } from "@game/core/selling-price";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DateTime } from "~/components/date-time";
import { competitionHref, RulesList } from "~/features/competitions/competition-list";
import { loadCompetitionsInPlay } from "~/features/competitions/competitions.server";
import { getCurrentGame } from "~/features/game/game.server";
import { GameBackdrop, toBackdropGame } from "~/features/game/game-backdrop";
import { LICENSES_LINK } from "~/features/layout/licenses";
import { COMPETITIONS_LINK, CONTACT_EMAIL, SITE_NAME } from "~/features/layout/site";
import { readTimeZone } from "~/utils/time-zone.server";

export const meta: MetaFunction = () => [{ title: `About · ${SITE_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [game, inPlay] = await Promise.all([
    getCurrentGame(request, context),
    loadCompetitionsInPlay(context),
  ]);
  return {
    game: toBackdropGame(game),
    /** The live competitions (else the next to start), their rules in words from their data. */
    inPlay,
    lock:
      game && game.status === "open"
        ? { event: game.name, at: lockTime(game).toISOString() }
        : null,
    timeZone: readTimeZone(request),
  };
}

const SCORING = [
  { result: "1st place", points: POINTS.first },
  { result: "2nd place", points: POINTS.second },
  { result: "3rd place", points: POINTS.third },
  { result: "4th to 10th place", points: POINTS.topTen },
  { result: "Any other finisher", points: POINTS.finisher },
  { result: "Did not finish, did not start or disqualified (DNF, DNS, DSQ)", points: POINTS.none },
];

/** The worked example of the pricing rule: computed by the rule itself, so it cannot drift. */
const PRICE_EXAMPLES: { racer: string; price: number; result: PricingResult; said: string }[] = [
  { racer: "A winner", price: 320_000, result: { status: "finished", position: 1 }, said: "1st" },
  {
    racer: "A top-10 rider",
    price: 150_000,
    result: { status: "finished", position: 7 },
    said: "7th",
  },
  {
    racer: "A mid-pack rider",
    price: 95_000,
    result: { status: "finished", position: 15 },
    said: "15th",
  },
  {
    racer: "A back-marker",
    price: 75_000,
    result: { status: "finished", position: 31 },
    said: "31st",
  },
  { racer: "A crash", price: 210_000, result: { status: "DNF" }, said: "DNF" },
  { racer: "A no-show", price: 55_000, result: { status: "DNS" }, said: "DNS" },
  {
    racer: "A star at the cap",
    price: 480_000,
    result: { status: "finished", position: 2 },
    said: "2nd",
  },
];

/** The page's sections, in order: the table of contents links to each (`/about#scoring`). */
const SECTIONS = [
  { id: "how", title: "How it works" },
  { id: "rules", title: "Team rules" },
  { id: "scoring", title: "Scoring" },
  { id: "budget", title: "Budget and bank" },
  { id: "prices", title: "Prices between rounds" },
  { id: "lock", title: "Lock time" },
  { id: "leagues", title: "Mini leagues" },
  { id: "faq", title: "FAQ" },
  { id: "competitions", title: "Competitions" },
] as const;

const FAQ = [
  {
    q: "Does it cost anything?",
    a: `No. ${SITE_NAME} is free, and the ${formatPrice(BUDGET)} budget is fake money: it cannot be bought, won or cashed out.`,
  },
  {
    q: "Can I change my team?",
    a: `As often as you like until the team locks, ${LOCK_HOURS} hours before the event starts. After that your team is frozen and scored as it was.`,
  },
  {
    q: "Why can I not add a racer?",
    a: `Either your team already has ${TEAM_SIZE} racers, the racer is already in it, or their price is more than what is left in your bank. Remove a racer to get their selling price back.`,
  },
  {
    q: "What does a racer's #rank mean?",
    a: "Their 2024 overall ranking. Racers without a 2024 ranking are listed last. Prices follow form: the better the ranking, the higher the price.",
  },
  {
    q: "When do points appear?",
    a: "After the official results of the event are published and entered. Rankings update at the same time.",
  },
  {
    q: "Why can I not enter an event?",
    a: "Only the open event can be entered. Closed events open one after the other through the season; archived events are over.",
  },
  {
    q: "How do I join a friend's league?",
    a: "Ask them to invite the e-mail address of your account. The invitation shows on your event page, where you can accept or dismiss it.",
  },
  {
    q: "Who can play?",
    a: `Anyone aged ${MIN_AGE} or over. See the Terms of Service and the Privacy Policy.`,
  },
];

export default function About() {
  const { game, inPlay, lock, timeZone } = useLoaderData<typeof loader>();
  return (
    <GameBackdrop game={game} title={`About ${SITE_NAME}`} subtitle="How the game works">
      <article className="panel prose">
        <nav className="toc" aria-label="Contents">
          <h2>Contents</h2>
          <ol>
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        <section id="how" aria-labelledby="how-title" className="about-section">
          <h2 id="how-title">How it works</h2>
          <ol className="steps">
            <li>
              <strong>Pick your team.</strong> Choose {TEAM_SIZE} real downhill racers for the open
              event without going over your {formatPrice(BUDGET)} budget.
            </li>
            <li>
              <strong>Create a mini league.</strong> Invite your friends by e-mail and race each
              other all season.
            </li>
            <li>
              <strong>Win.</strong> Your racers score points from their real results. Climb the
              Player Ranking, and take your league to the top of the Leagues Ranking.
            </li>
          </ol>
        </section>

        <section id="rules" aria-labelledby="rules-title" className="about-section">
          <h2 id="rules-title">Team rules</h2>
          {inPlay.map((c) => (
            <div key={c.slug} className="about-live-rules">
              <h3 id={`rules-${c.slug}`}>
                {c.state === "live" ? `${c.name}, being played now` : `${c.name}, starting next`}
              </h3>
              <RulesList lines={c.rulesText} />
              <p>
                <Link to={competitionHref(c.slug)}>{c.name}: its rounds, standings and rules</Link>
              </p>
            </div>
          ))}
          {inPlay.length > 0 ? (
            <h3 id="rules-usual">The usual rules (a competition may set its own)</h3>
          ) : null}
          <ul>
            <li>Exactly {TEAM_SIZE} racers, each at most once.</li>
            <li>At least {MIN_FEMALE} women (Pro Women or 17-18 Women).</li>
            <li>At least {MIN_JUNIOR} junior (17-18 Men or 17-18 Women).</li>
            <li>
              The total price of the team must not exceed the {formatPrice(BUDGET)} budget, give or
              take what selling racers has gained or lost (see Budget and bank below).
            </li>
          </ul>
          <p>
            Racers come in four categories: Pro Men, Pro Women, 17-18 Men and 17-18 Women. Browse
            them with their prices on <Link to="/view-racers">View Racers</Link>.
          </p>
        </section>

        <section id="scoring" aria-labelledby="scoring-title" className="about-section">
          <h2 id="scoring-title">Scoring</h2>
          <p>Each racer on your team scores for their result in their category:</p>
          <table className="table scoring-table">
            <caption className="visually-hidden">Points per race result</caption>
            <thead>
              <tr>
                <th scope="col">Result</th>
                <th scope="col" className="num">
                  Points
                </th>
              </tr>
            </thead>
            <tbody>
              {SCORING.map((row) => (
                <tr key={row.result}>
                  <th scope="row">{row.result}</th>
                  <td className="num">{row.points}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>Your event score is the sum of your six racers' points.</p>
        </section>

        <section id="budget" aria-labelledby="budget-title" className="about-section">
          <h2 id="budget-title">Budget and bank</h2>
          <p>
            Every player starts with a {formatPrice(BUDGET)} bank of fake money. Adding a racer
            takes their price from the bank; removing one gives back their selling price. You can
            only add a racer you can afford.
          </p>
          <p>
            Your team keeps the price it paid for each racer for as long as the racer stays on it,
            so a price change never makes a saved team too expensive. A racer's selling price is
            today's price if it has fallen below what you paid, and what you paid plus half the rise
            (rounded down to {formatPrice(PRICE_STEP)}) if it has risen: a fall is yours to take,
            and selling a racer and buying them back never makes money. What a sale gains or loses
            stays with your team from round to round of a series.
          </p>
          <p>
            For example, a racer bought for {formatPrice(60_000)} sells for{" "}
            {formatPrice(sellingPrice(60_000, 57_000))} once their price has fallen to{" "}
            {formatPrice(57_000)}, and for {formatPrice(sellingPrice(60_000, 67_000))} once it has
            risen to {formatPrice(67_000)}.
          </p>
        </section>

        <section id="prices" aria-labelledby="prices-title" className="about-section">
          <h2 id="prices-title">Prices between rounds</h2>
          <p>
            When a round of a series has been scored, the next round opens with every racer of that
            round at a new price, from their result in their category:
          </p>
          <table className="table scoring-table">
            <caption className="visually-hidden">Price change per race result</caption>
            <thead>
              <tr>
                <th scope="col">Result</th>
                <th scope="col" className="num">
                  Price change
                </th>
              </tr>
            </thead>
            <tbody>
              {PRICE_BANDS.map((band) => (
                <tr key={band.id}>
                  <th scope="row">{band.label}</th>
                  <td className="num">{band.percent > 0 ? `+${band.percent}` : band.percent}%</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            New prices are rounded to the nearest {formatPrice(1_000)} and stay between{" "}
            {formatPrice(PRICE_MIN)} and {formatPrice(PRICE_MAX)}. Your team is carried into the
            next round at the prices you paid: it plays on without you doing anything, unless one of
            your racers is out (then it waits for you as a draft until you replace them).
          </p>
          <table className="table scoring-table">
            <caption>Worked example</caption>
            <thead>
              <tr>
                <th scope="col">Racer</th>
                <th scope="col">Result</th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col" className="num">
                  Next round
                </th>
              </tr>
            </thead>
            <tbody>
              {PRICE_EXAMPLES.map((row) => (
                <tr key={row.racer}>
                  <th scope="row">{row.racer}</th>
                  <td>{row.said}</td>
                  <td className="num">{formatPrice(row.price)}</td>
                  <td className="num">{formatPrice(nextPrice(row.price, row.result))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>

        <section id="lock" aria-labelledby="lock-title" className="about-section">
          <h2 id="lock-title">Lock time</h2>
          <p>
            Teams lock {LOCK_HOURS} hours before the event starts. Until then you can change your
            team as often as you like; from then on it is frozen and scored as it stands.
          </p>
          {lock ? (
            <p className="callout">
              {lock.event}: teams lock on <DateTime value={lock.at} timeZone={timeZone} />.
            </p>
          ) : null}
        </section>

        <section id="leagues" aria-labelledby="leagues-title" className="about-section">
          <h2 id="leagues-title">Mini leagues</h2>
          <p>
            Once you have a team, create a league and invite friends by e-mail. Invited players
            accept or dismiss the invitation; members can leave at any time and only the owner can
            delete the league. A league's score is the average of its accepted members' scores, so
            small leagues can beat big ones.
          </p>
        </section>

        <section id="faq" aria-labelledby="faq-title" className="about-section">
          <h2 id="faq-title">FAQ</h2>
          <div className="faq">
            {FAQ.map((item) => (
              <details key={item.q}>
                <summary>{item.q}</summary>
                <p>{item.a}</p>
              </details>
            ))}
          </div>
        </section>

        <section id="competitions" aria-labelledby="competitions-title" className="about-section">
          <h2 id="competitions-title">Competitions</h2>
          <p>
            Each round belongs to a competition: a series or a one-off race, in downhill or another
            discipline. A competition may have rules of its own: the team size, the budget, how many
            women and juniors a team needs and when teams lock. Team rules above states the rules of
            the competition being played; the rest of this page describes the usual game, and each
            competition's page states its own rules in full.{" "}
            <Link to={COMPETITIONS_LINK.to}>See the live and upcoming competitions</Link>.
          </p>
          <p>
            Questions, ideas or a race we should add? Write to{" "}
            <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>.
          </p>
          <p>
            {SITE_NAME} is built with open-source software: <a href={LICENSES_LINK}>its licences</a>
            .
          </p>
        </section>
      </article>
    </GameBackdrop>
  );
}
