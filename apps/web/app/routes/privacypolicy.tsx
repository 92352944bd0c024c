import { MIN_AGE } from "@game/core/constants";
import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { LegalPage, type LegalSection } from "~/features/layout/legal-page";
import { CONTACT_EMAIL, SITE_NAME } from "~/features/layout/site";

export const meta: MetaFunction = () => [{ title: `Privacy Policy · ${SITE_NAME}` }];

const mail = <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>;

const sections: LegalSection[] = [
  {
    id: "who",
    title: "Who we are",
    body: (
      <p>
        {SITE_NAME} is a free fantasy downhill mountain-bike game. We are responsible for the
        personal data described here. You can reach us at {mail}.
      </p>
    ),
  },
  {
    id: "collect",
    title: "What we collect",
    body: (
      <ul>
        <li>
          <strong>Account:</strong> your e-mail address, your username and your password, which we
          store only as a salted scrypt hash (we cannot read it), and your time zone as your browser
          reports it (such as Europe/Paris), so our e-mails give times in your local time.
        </li>
        <li>
          <strong>Game data:</strong> your teams, scores, rankings, the leagues you create or join,
          and the invitations you send or receive (including the guest's e-mail address).
        </li>
        <li>
          <strong>Sign-in data:</strong> a record of each signed-in session (when it started, when
          it was last used and your browser's name), password-reset links you ask for (kept only as
          a fingerprint, valid for one hour), and short-lived counters of login, sign-up and reset
          attempts per IP address and e-mail address.
        </li>
      </ul>
    ),
  },
  {
    id: "use",
    title: "How we use it",
    body: (
      <p>
        To run the game: to log you in, keep your team and leagues, compute scores and rankings,
        deliver league invitations, and protect accounts against password guessing and abuse. We do
        not sell your data, show advertising, or build marketing profiles.
      </p>
    ),
  },
  {
    id: "legal-basis",
    title: "Legal basis",
    body: (
      <p>
        We process your data to provide the game you signed up for (performance of a contract) and,
        for the security measures, because we have a legitimate interest in keeping accounts safe.
      </p>
    ),
  },
  {
    id: "public",
    title: "What other players see",
    body: (
      <p>
        Your username, points and ranking appear in the public rankings, and league names and league
        scores in the league ranking. Members of your leagues see your username and score. Your
        e-mail address is never shown publicly; people you invite to a league, and the leagues that
        invite you, see the e-mail address used for the invitation.
      </p>
    ),
  },
  {
    id: "cookies",
    title: "Cookies",
    body: (
      <>
        <p>We use three cookies, all necessary for the game, and no tracking cookies:</p>
        <ul>
          <li>
            <code>gf_session</code>: keeps you logged in for up to 30 days, or until you have not
            used the game for 7 days. It holds only a random token, is not readable by scripts, and
            stops working when you log out or sign out everywhere from your account page.
          </li>
          <li>
            <code>gf_game</code>: remembers the event you looked at last, for one year.
          </li>
          <li>
            <code>gf_tz</code>: your time zone (such as Europe/Paris), so pages show dates in your
            local time, for one year.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "sharing",
    title: "Who we share it with",
    body: (
      <p>
        Only with the service providers that host the game and deliver its e-mail, under contracts
        that let them use the data for that purpose only, or when the law requires it.
      </p>
    ),
  },
  {
    id: "retention",
    title: "How long we keep it",
    body: (
      <p>
        Your account and game data for as long as your account exists. Session records until they
        end (30 days, 7 days unused, or when you log out); reset links and attempt counters for at
        most an hour. When you ask us to delete your account, we delete your account, teams and
        league memberships within 30 days.
      </p>
    ),
  },
  {
    id: "security",
    title: "Security",
    body: (
      <p>
        Passwords are hashed with scrypt and common passwords are refused, sessions are stored on
        our side and can be revoked (you can sign out everywhere), the session cookie is HttpOnly
        and sent over HTTPS in production, and repeated login attempts are slowed down. No system is
        perfectly secure: please use a password you do not use elsewhere.
      </p>
    ),
  },
  {
    id: "children",
    title: "Children",
    body: (
      <p>
        The minimum age to use {SITE_NAME} is {MIN_AGE}. We do not knowingly collect data from
        children under {MIN_AGE}. If you believe a child under {MIN_AGE} has an account, write to{" "}
        {mail} and we will delete it.
      </p>
    ),
  },
  {
    id: "rights",
    title: "Your rights",
    body: (
      <p>
        You can ask us for a copy of your data, to correct it, or to delete your account, and you
        can object to how we use it. Write to {mail}; we answer within 30 days. You may also
        complain to your local data protection authority.
      </p>
    ),
  },
  {
    id: "changes",
    title: "Changes and contact",
    body: (
      <p>
        We will post any change to this policy on this page and update the date at the top; a
        significant change will also be announced on the site. Questions: {mail}. See also our{" "}
        <Link to="/tos">Terms of Service</Link>.
      </p>
    ),
  },
];

export default function PrivacyPolicy() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro={
        <p>
          We collect as little as a game needs, never sell it, and show no ads. Here is exactly what
          we keep and why.
        </p>
      }
      sections={sections}
    />
  );
}
