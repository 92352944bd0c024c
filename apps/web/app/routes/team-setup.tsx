import widgetStyles from "@game/widgets/styles.css?url";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useRevalidator,
  useRouteError,
} from "@remix-run/react";
import { LockNotice } from "~/features/team/lock-notice";
import { SeasonChangesPart } from "~/features/team/season-changes-part";
import { loadTeamSetup, teamSetupAction } from "~/features/team/setup.server";
import teamStyles from "~/features/team/team.css?url";
import { TeamBuilder } from "~/features/team/team-builder";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: widgetStyles },
  { rel: "stylesheet", href: teamStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `Your team: ${data.event.name} | Gravity Fantasy`
      : "Team setup | Gravity Fantasy",
  },
];

export const loader = ({ request, context }: LoaderFunctionArgs) => loadTeamSetup(request, context);

export const action = ({ request, context }: ActionFunctionArgs) =>
  teamSetupAction(request, context);

/** "A", "A and B", "A, B and C". */
function listNames(names: readonly string[]): string {
  return names.length <= 1
    ? (names[0] ?? "")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export default function TeamSetup() {
  const d = useLoaderData<typeof loader>();
  const actionResult = useActionData<typeof action>();
  const revalidator = useRevalidator();
  return (
    <main className="page team-page">
      <header className="team-page__header">
        <img src={d.event.logo} alt="" className="team-page__logo" width={56} height={56} />
        <div>
          <p className="team-page__eyebrow">
            <Link to={`/game/${d.event.id}`}>{d.event.name}</Link>
          </p>
          <h1>{d.hasTeam ? "Edit your team" : "Create your team"}</h1>
        </div>
      </header>
      {d.editable.ok ? (
        <LockNotice
          lockAt={d.event.lockAt}
          lockHours={d.event.lockHours}
          now={d.now}
          timeZone={d.timeZone}
          className="team-page__lock"
          // Reload the page's data at the lock: the builder then says why it cannot save.
          onLock={revalidator.revalidate}
        />
      ) : (
        <p className="notice" role="status">
          {d.editable.reason}
        </p>
      )}
      {d.withdrawn.length > 0 ? (
        <p className="notice" role="status">
          {listNames(d.withdrawn)} {d.withdrawn.length === 1 ? "has" : "have"} withdrawn from this
          round and will not score. Your team keeps them; replace them before the lock if you can.
        </p>
      ) : null}
      {d.season && (d.season.fixes.length > 0 || d.season.previous) ? (
        <section className="card team-page__season" aria-label="Since the last round">
          <SeasonChangesPart season={d.season} foldPrices />
        </section>
      ) : null}
      <TeamBuilder
        // The draft is page state: start afresh only when the event changes.
        key={d.event.id}
        eventId={d.event.id}
        racers={d.racers}
        draft={d.draft}
        captain={d.captain}
        transfers={d.transfers}
        held={d.held}
        hasTeam={d.hasTeam}
        budget={d.budget}
        rules={d.event.rules}
        category={d.category}
        show={d.show}
        lockedReason={d.editable.ok ? null : d.editable.reason}
        actionResult={actionResult && "message" in actionResult ? actionResult : undefined}
      />
    </main>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="page team-page">
      <h1>{notFound ? "Game not found." : "Something went wrong."}</h1>
      <p role="alert">
        {notFound
          ? "That event does not exist."
          : "We could not load the team builder. Please try again in a moment."}
      </p>
      <p>
        <Link to="/">Back to the events</Link>
      </p>
    </main>
  );
}
