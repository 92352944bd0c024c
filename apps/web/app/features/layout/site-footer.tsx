import { Link } from "@remix-run/react";
import { COMPETITIONS_LINK, CONTACT_EMAIL, FOOTER_LINKS, SITE_NAME } from "./site";

/** Branding, navigation, the competitions, the contact address and the legal pages. */
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
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <section className="footer-col" aria-labelledby="footer-competitions">
          <h2 id="footer-competitions">Race calendar</h2>
          <ul>
            <li>
              <Link to={COMPETITIONS_LINK.to}>{COMPETITIONS_LINK.label}</Link>
            </li>
            <li>
              <Link to="/about#competitions">How competitions differ</Link>
            </li>
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
