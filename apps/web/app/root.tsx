import widgetStyles from "@game/widgets/styles.css?url";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { SiteFooter } from "~/features/layout/site-footer";
import { type HeaderUser, SiteHeader } from "~/features/layout/site-header";
import { LoginModalProvider } from "./features/auth/login-modal";
import "./load-context";
import appStyles from "./styles/app.css?url";
import { getUser } from "./utils/auth.server";
import { useNonce } from "./utils/nonce";
import { useRememberTimeZone } from "./utils/time-zone";
import { rememberTimeZone } from "./utils/time-zone.server";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: widgetStyles },
  { rel: "stylesheet", href: appStyles },
];

export const meta: MetaFunction = () => [
  { title: "Gravity Fantasy: fantasy downhill mountain-bike racing" },
  {
    name: "description",
    content:
      "Pick six real downhill racers within budget, score from real results, beat your friends.",
  },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(request, context);
  await rememberTimeZone(request, context, user);
  const header: HeaderUser | null = user ? { username: user.username, role: user.role } : null;
  return { user: header };
}

/** Without JavaScript the phone menu cannot fold: keep its links visible instead. */
const NO_SCRIPT_STYLE =
  "<style>.menu-toggle{display:none!important}.site-nav{display:flex!important}</style>";

export function Layout({ children }: { children: React.ReactNode }) {
  // Also rendered for errors, when the root loader may not have run: then it is a visitor.
  const user = useRouteLoaderData<typeof loader>("root")?.user ?? null;
  const nonce = useNonce();
  useRememberTimeZone();
  // Pages shown inside partner iframes (`handle = { layout: "bare" }`) get no site chrome.
  const bare = useMatches().some(
    (m) => (m.handle as { layout?: string } | undefined)?.layout === "bare",
  );
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant style, no input */}
        <noscript dangerouslySetInnerHTML={{ __html: NO_SCRIPT_STYLE }} />
      </head>
      <body>
        {bare ? (
          children
        ) : (
          <LoginModalProvider signedIn={user !== null}>
            <SiteHeader user={user} />
            <div id="main" className="site-main" tabIndex={-1}>
              {children}
            </div>
            <SiteFooter />
          </LoginModalProvider>
        )}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** Any error still shows the navigation and footer, with a way back. */
export function ErrorBoundary() {
  const error = useRouteError();
  let title = "Something went wrong";
  let message = "Please try again in a moment. If it keeps happening, let us know.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 403) {
      title = "Not allowed";
      message = "Your account cannot open this page.";
    } else if (error.status === 404) {
      title = "Page not found";
      message = "We could not find that page.";
    } else if (error.status === 503 && typeof error.data?.message === "string") {
      // A save the database cannot take now (decision 0150): its message says when to retry.
      title = "Not saved";
      message = error.data.message;
    } else if (error.status === 400) {
      // A request no page of ours sends (readForm's answer): say so, without details.
      title = "That request could not be read";
      message = "The form could not be read. Please reload the page and try again.";
    }
  }
  // Errors are logged once, on the server (entry.server's handleError), without player data.
  return (
    <main className="page page--narrow error-page">
      <h1>{title}</h1>
      <p>{message}</p>
      <p>
        <Link to="/" className="button button--primary">
          Back to the events
        </Link>
      </p>
    </main>
  );
}
