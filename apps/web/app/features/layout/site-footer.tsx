import { Link } from "@remix-run/react";
import { CONTACT_EMAIL, NAV_LINKS, OTHER_GAMES, SITE_NAME } from "./site";

/** Branding, navigation, our other games, the contact address and the legal pages. */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <section className="footer-brand" aria-label={SITE_NAME}>
          <Link to="/" className="brand brand--footer">
            <img src="/img/brand/logo.svg" alt="" width="28" height="28" />
            <span>{SITE_NAME}</span>
          </Link>
          <p>
            Free fantasy downhill mountain biking. Pick six real racers, stay within budget and beat
            your friends. Fake money only.
          </p>
        </section>
        <nav className="footer-col" aria-label="Footer">
          <h2>Play</h2>
          <ul>
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <section className="footer-col" aria-labelledby="footer-games">
          <h2 id="footer-games">More games</h2>
          <ul>
            {OTHER_GAMES.map((game) => (
              <li key={game.name}>
                <Link to="/about#other-games">{game.name}</Link>{" "}
                <span className="muted">({game.note})</span>
              </li>
            ))}
          </ul>
        </section>
        <section className="footer-col" aria-labelledby="footer-contact">
          <h2 id="footer-contact">Contact</h2>
          <ul>
            <li>
              <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
            </li>
            <li>
              <Link to="/tos">Terms of Service</Link>
            </li>
            <li>
              <Link to="/privacypolicy">Privacy Policy</Link>
            </li>
          </ul>
        </section>
      </div>
      <p className="footer-legal">
        © {SITE_NAME}. Free to play, no real money. Not affiliated with the UCI or any race
        organiser.
      </p>
    </footer>
  );
}
