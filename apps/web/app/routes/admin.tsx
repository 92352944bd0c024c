/** The admin dashboard frame: heading, section navigation, and the admin-only gate. */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData, useNavigation } from "@remix-run/react";
import adminStyles from "~/features/admin/admin.css?url";
import { requireAdmin } from "~/utils/auth.server";
import { readTimeZone } from "~/utils/time-zone.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

export const meta: MetaFunction = () => [
  { title: "Admin Dashboard · Gravity Fantasy" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  // The admin's time zone, for the dates of every admin page (AdminTime).
  return { admin: { username: admin.username }, timeZone: readTimeZone(request) };
}

const SECTIONS = [
  { to: "/admin", label: "Racers", end: true },
  { to: "/admin/competitions", label: "Competitions" },
  { to: "/admin/events", label: "Events" },
  { to: "/admin/results", label: "Results" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/partners", label: "Partners" },
  { to: "/admin/outbox", label: "Outbox" },
  { to: "/admin/audit", label: "Audit log" },
] as const;

export default function AdminLayout() {
  const { admin } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  return (
    <main className="page admin">
      <header className="admin-head">
        <h1>Admin Dashboard</h1>
        <p className="muted">
          Signed in as {admin.username}. Every change made here is recorded in the audit log.
        </p>
      </header>
      <nav className="admin-nav" aria-label="Admin sections">
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.to}>
              <NavLink to={s.to} end={"end" in s ? s.end : undefined} prefetch="intent">
                {s.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin-body" aria-busy={navigation.state === "loading" || undefined}>
        <Outlet />
      </div>
    </main>
  );
}
