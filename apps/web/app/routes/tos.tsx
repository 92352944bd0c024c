import { MIN_AGE } from "@game/core/constants";
import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { LegalPage, type LegalSection } from "~/features/layout/legal-page";
import { CONTACT_EMAIL, SITE_NAME } from "~/features/layout/site";

export const meta: MetaFunction = () => [{ title: `Terms of Service · ${SITE_NAME}` }];

const mail = <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>;

const sections: LegalSection[] = [
  {
    id: "agreement",
    title: "Agreement to these terms",
    body: (
      <p>
        By creating an account or playing {SITE_NAME} you agree to these terms. If you do not agree,
        please do not use the game. Browsing the public pages (events, racers, rankings, About) does
        not need an account.
      </p>
    ),
  },
  {
    id: "service",
    title: "What the game is",
    body: (
      <p>
        {SITE_NAME} is a fantasy sports game about downhill mountain-bike racing. You pick a team of
        real racers for an event, your team scores points from the racers' real results, and you
        compare your score with other players and in mini leagues. It is a game of skill and
        opinion: nothing you do here affects the real races.
      </p>
    ),
  },
  {
    id: "free",
    title: "Free to play, fake money only",
    body: (
      <p>
        The game is free. The budget, bank, prices and credits in the game are play money: they have
        no cash value, cannot be bought, sold, transferred or exchanged for anything, and no prizes
        of value are paid. We will never ask you for payment details.
      </p>
    ),
  },
  {
    id: "eligibility",
    title: "Who can play",
    body: (
      <p>
        You must be at least {MIN_AGE} years old to create an account. If the law where you live
        requires a parent's or guardian's consent at your age, you need it before you sign up.
      </p>
    ),
  },
  {
    id: "accounts",
    title: "Your account",
    body: (
      <>
        <p>
          One account per person. Give a real e-mail address you can read: we use it for your login
          and for league invitations sent to you. Keep your password to yourself; you are
          responsible for what happens under your account.
        </p>
        <p>
          New accounts are active straight away. An administrator can block an account (for example
          for abuse); a blocked account cannot log in until an administrator accepts it again.
        </p>
      </>
    ),
  },
  {
    id: "usernames",
    title: "Usernames and league names",
    body: (
      <p>
        Your username and the names of leagues you create are shown publicly in rankings. Do not
        pick names that are offensive, that impersonate someone, or that contain personal data such
        as a phone number. We may rename or remove names that break this rule.
      </p>
    ),
  },
  {
    id: "rules",
    title: "Game rules and scoring",
    body: (
      <p>
        The rules, the budget, the lock time and the scoring table are explained on the{" "}
        <Link to="/about">About</Link> page and form part of these terms. Teams lock 12 hours before
        an event starts; after that they cannot be changed. Points come from the official results as
        we enter them; if an official result is corrected we may correct the scores.
      </p>
    ),
  },
  {
    id: "leagues",
    title: "Mini leagues",
    body: (
      <p>
        Any player can create a mini league and invite friends by e-mail. Only invite people who
        would expect to hear from you. The league owner may delete the league; members may leave it
        at any time.
      </p>
    ),
  },
  {
    id: "fair-play",
    title: "Fair play",
    body: (
      <p>
        Do not use more than one account, automate sign-ups or logins, scrape the site at a rate
        that slows it down, try to get into other people's accounts, or probe the service for
        weaknesses without our written permission. We may block accounts that do.
      </p>
    ),
  },
  {
    id: "content",
    title: "Racers, events and trademarks",
    body: (
      <p>
        Racer names, event names and results are used to describe real sporting events. {SITE_NAME}{" "}
        is not affiliated with, endorsed by or sponsored by the UCI, any race organiser, team or
        racer. Trademarks belong to their owners.
      </p>
    ),
  },
  {
    id: "availability",
    title: "Availability and changes to the game",
    body: (
      <p>
        We run the game on a best-effort basis. It may be unavailable at times, and we may change,
        add or remove features, events and racers. If an event is cancelled or its results are not
        published, it may not be scored.
      </p>
    ),
  },
  {
    id: "termination",
    title: "Closing your account",
    body: (
      <p>
        You can stop playing at any time and ask us to delete your account by writing to {mail}. We
        may suspend or close accounts that break these terms. Public rankings may keep showing past
        results without your username.
      </p>
    ),
  },
  {
    id: "liability",
    title: "No warranty, limited liability",
    body: (
      <p>
        The game is provided "as is", without warranties of any kind. To the extent the law allows,
        we are not liable for any loss arising from your use of the game, including lost points,
        rankings or data. Nothing in these terms limits rights you have by law that cannot be
        limited.
      </p>
    ),
  },
  {
    id: "changes",
    title: "Changes to these terms",
    body: (
      <p>
        We may update these terms. The date at the top shows the latest version. If a change is
        significant we will say so on the site before it takes effect; playing after that means you
        accept the new terms.
      </p>
    ),
  },
  {
    id: "contact",
    title: "Contact",
    body: <p>Questions about these terms: write to {mail}.</p>,
  },
];

export default function TermsOfService() {
  return (
    <LegalPage
      title="Terms of Service"
      intro={
        <p>
          The short version: {SITE_NAME} is free, the money is fake, play fair and be kind. How we
          handle your data is in the <Link to="/privacypolicy">Privacy Policy</Link>.
        </p>
      }
      sections={sections}
    />
  );
}
