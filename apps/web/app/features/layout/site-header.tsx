import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { authPath } from "~/features/auth/auth-result";
import { isPlainClick, useLoginModal } from "~/features/auth/login-modal";
import { NAV_LINKS, SITE_NAME } from "./site";

export interface HeaderUser {
  username: string;
  role: "player" | "admin";
}

/** Where to come back to after logging in from this page (home pages land on /homepage). */
function returnPath(pathname: string, search: string): string | null {
  if (pathname === "/" || pathname === "/homepage") return null;
  const params = new URLSearchParams(search);
  params.delete("login");
  params.delete("redirectTo");
  const rest = params.toString();
  return `${pathname}${rest ? `?${rest}` : ""}`;
}

/**
 * The navigation bar on every screen. Where the links would not fit on one line they fold behind a
 * Menu button (aria-expanded); without JavaScript they simply stay visible (see the <noscript>
 * style in root). The width where they fold depends on what the bar holds (`data-nav`, see
 * app.css and docs/decisions/0115-header-on-one-line.md).
 */
export function SiteHeader({ user }: { user: HeaderUser | null }) {
  const location = useLocation();
  const login = useLoginModal();
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const back = returnPath(location.pathname, location.search);

  // Any navigation (links, back/forward) closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation on purpose
  useEffect(() => setMenuOpen(false), [location.pathname, location.search, location.hash]);

  return (
    <header className="site-header" data-nav={user ? user.role : "visitor"}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="site-header-inner">
        <Link to="/" className="brand" aria-label={`${SITE_NAME} home`}>
          <img src="/img/brand/logo.svg" alt="" width="32" height="32" />
          <span>{SITE_NAME}</span>
        </Link>
        <button
          ref={toggleRef}
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="menu-toggle-icon" aria-hidden="true" />
          Menu
        </button>
        <nav
          id="site-menu"
          className="site-nav"
          aria-label="Main"
          data-open={menuOpen || undefined}
          onClick={(event) => {
            // Fold at once on a followed link instead of after the next page's data arrives.
            if ((event.target as HTMLElement).closest("a")) setMenuOpen(false);
          }}
          onKeyDown={(event) => {
            if (event.key === "Escape" && menuOpen) {
              setMenuOpen(false);
              toggleRef.current?.focus();
            }
          }}
        >
          <ul>
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                {"plain" in link ? (
                  <Link to={link.to}>{link.label}</Link>
                ) : (
                  <NavLink to={link.to} end={"end" in link ? link.end : undefined}>
                    {link.label}
                  </NavLink>
                )}
              </li>
            ))}
            {user?.role === "admin" ? (
              <li>
                <NavLink to="/admin">Admin</NavLink>
              </li>
            ) : null}
          </ul>
          <div className="site-nav-account">
            {user ? (
              <Form method="post" action="/logout" className="logout-form">
                <Link to="/account" className="signed-in-as" title="Your account">
                  <span className="visually-hidden">Signed in as </span>
                  {user.username}
                </Link>
                <button type="submit" className="button button--ghost">
                  Logout
                </button>
              </Form>
            ) : (
              <Link
                to={authPath("login", back)}
                className="button button--primary"
                onClick={(event) => {
                  if (!isPlainClick(event)) return;
                  event.preventDefault();
                  setMenuOpen(false);
                  login.open({ mode: "login", redirectTo: back });
                }}
              >
                Login
              </Link>
            )}
          </div>
        </nav>
      </div>
    </header>
  );
}
