/**
 * /admin/competitions: create competitions with their rules, change the rules until the first
 * lock, add rounds, copy racers into a round and archive a competition. Scheduling, opening and
 * closing a round stay on /admin/events. Every form works without JavaScript.
 */
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  answerFor,
  CompetitionPanel,
  CompetitionTable,
  CreateCompetition,
} from "~/features/admin/competition-panel";
import { competitionsAction, loadAdminCompetitions } from "~/features/admin/competitions.server";
import { useAdminTimeZone } from "~/features/admin/use-admin-time-zone";
import { requireAdmin } from "~/utils/auth.server";
import { readForm } from "~/utils/request.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return loadAdminCompetitions(context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { result, status } = await competitionsAction(await readForm(request), context, admin);
  return data(result, { status });
}

export default function AdminCompetitions() {
  const { competitions } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const zone = useAdminTimeZone();
  const allRounds = competitions
    .filter((c) => c.rounds.length > 0)
    .map((c) => ({
      competition: c.name,
      rounds: c.rounds.map((r) => ({ id: r.id, name: r.name, competition: c.name })),
    }));
  // An answer about a competition that is not listed (gone, or a slug typed by hand).
  const stray =
    answer && !answer.ok && answer.intent !== "create" && answer.errors?.form
      ? !competitions.some((c) => c.slug === answer.competition)
      : false;
  return (
    <>
      <CreateCompetition answer={answerFor(answer, "create")} />
      <section className="panel" aria-labelledby="competitions-title">
        <h2 id="competitions-title">Competitions</h2>
        <p className="muted">
          Live and upcoming first. Open, close and schedule rounds on the{" "}
          <a href="/admin/events">Events</a> page.
        </p>
        {stray && answer?.errors?.form ? <p className="form-error">{answer.errors.form}</p> : null}
        <CompetitionTable competitions={competitions} />
      </section>
      {competitions.map((c) => (
        <CompetitionPanel
          key={c.slug}
          competition={c}
          allRounds={allRounds}
          answer={answer && answer.competition === c.slug ? answer : undefined}
          zone={zone}
        />
      ))}
    </>
  );
}
