/** /admin: the CSV racer upload (spec: Admin Dashboard) and the racers it maintains. */
import { CATEGORIES, categoryToSlug } from "@game/core/categories";
import { formatPrice } from "@game/core/format";
import { Portrait } from "@game/widgets";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminTable, num } from "~/features/admin/admin-table";
import { AdminTime } from "~/features/admin/admin-time";
import { racersPage } from "~/features/admin/lists.server";
import { Pager } from "~/features/admin/pager";
import { PortraitUpload } from "~/features/admin/portrait-upload";
import { RacerUpload } from "~/features/admin/racer-upload";
import {
  isJsonRequest,
  uploadFromForm,
  uploadFromJson,
} from "~/features/admin/racer-upload.server";
import { requireAdmin } from "~/utils/auth.server";

const PAGE_SIZE = 50;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return racersPage(request, context, PAGE_SIZE);
}

/** The plain (no JavaScript) upload: the file itself, multipart. The script posts JSON rows. */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { result, status } = isJsonRequest(request)
    ? await uploadFromJson(request, context, admin)
    : await uploadFromForm(request, context, admin);
  return data(result, { status });
}

export default function AdminRacers() {
  const { events, filter, racers, total, page } = useLoaderData<typeof loader>();
  const uploaded = useActionData<typeof action>();
  const eventName = new Map(events.map((e) => [e.id, e.name]));
  return (
    <>
      <RacerUpload serverResult={uploaded} />
      <PortraitUpload />
      <section className="panel" aria-labelledby="racers-title">
        <h2 id="racers-title">Racers</h2>
        <Form method="get" className="admin-filters" role="search" aria-label="Filter racers">
          <div className="field">
            <label htmlFor="racers-game">Event</label>
            <select id="racers-game" name="game" defaultValue={filter.gameId ?? ""}>
              <option value="">All events</option>
              {events.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.id}. {e.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="racers-category">Category</label>
            <select
              id="racers-category"
              name="category"
              defaultValue={filter.category ? categoryToSlug(filter.category) : ""}
            >
              <option value="">All categories</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={categoryToSlug(c)}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button button--ghost">
            Show
          </button>
        </Form>
        <p className="muted">
          {total} {total === 1 ? "racer" : "racers"}
          {filter.gameId ? ` in ${eventName.get(filter.gameId) ?? `event ${filter.gameId}`}` : ""}
          {filter.category ? `, ${filter.category}` : ""}.
        </p>
        {racers.length === 0 ? (
          <p>No racers match. Upload a CSV file above to add some.</p>
        ) : (
          <AdminTable
            label="Racer table"
            columns={[
              "ID",
              "Event",
              "Category",
              "Portrait",
              "Name",
              num("Rank2024"),
              num("Points"),
              num("Price"),
              "Origin",
              "Picture",
              "Status",
              "Updated",
            ]}
            rows={racers}
          >
            {(r) => (
              <tr key={r.id}>
                <td>{r.id}</td>
                <td>{r.gameId}</td>
                <td>{r.category}</td>
                <td>
                  <span className="gf-root admin-face">
                    <Portrait picture={r.hasPortrait ? r.picture : null} racer={r} />
                  </span>
                  <span className="visually-hidden">{r.hasPortrait ? "stored" : "none"}</span>
                </td>
                <th scope="row">
                  <Link
                    to={`/admin/racer/${r.id}`}
                    aria-label={`Edit ${r.firstName} ${r.lastName}`}
                  >
                    {r.firstName} {r.lastName}
                  </Link>
                </th>
                <td className="num">{r.rank2024 || "-"}</td>
                <td className="num">{r.totalPoint2024}</td>
                <td className="num">{formatPrice(r.price)}</td>
                <td>{r.origin}</td>
                <td>{r.picture ?? ""}</td>
                <td>{r.withdrawnAt ? "withdrawn" : "starting"}</td>
                <td>
                  <AdminTime value={r.updatedAt} />
                </td>
              </tr>
            )}
          </AdminTable>
        )}
        <Pager page={page} pageSize={PAGE_SIZE} total={total} />
      </section>
    </>
  );
}
