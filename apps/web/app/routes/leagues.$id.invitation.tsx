/** Where an invitation e-mail leads: accept or dismiss (after signing up or logging in). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ConfirmEmailBanner } from "~/features/account/confirm-email-banner";
import { LEAGUE_ACTION } from "~/features/leagues/forms";
import { loadInvitationPage } from "~/features/leagues/invitation.server";
import "~/features/leagues/leagues.css";
import { MembersTable } from "~/features/leagues/members-table";

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadInvitationPage(request, context, params.id);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title:
      data?.state === "invited"
        ? `Invitation to ${data.league.name} | Gravity Fantasy`
        : "League invitation | Gravity Fantasy",
  },
  { name: "robots", content: "noindex" },
];

export default function LeagueInvitation() {
  const page = useLoaderData<typeof loader>();

  if (page.state === "visitor") {
    return (
      <main className="lg-page">
        <h1>You're invited to a mini league</h1>
        <p>
          A friend invited you to battle them in a Gravity Fantasy mini league: pick six real
          downhill racers within a 1,000,000 budget and see who scores most this season. It's free.
        </p>
        <p>
          Create your account with the e-mail address the invitation was sent to, or log in, and you
          will come straight back here to accept.
        </p>
        <div className="lg-actions">
          <a className="lg-button" href={page.signupHref}>
            Create your account
          </a>
          <a className="lg-button lg-button--ghost" href={page.loginHref}>
            Log in
          </a>
        </div>
      </main>
    );
  }

  if (page.state === "unconfirmed") {
    return (
      <main className="lg-page">
        <h1>Confirm your e-mail address to see this invitation</h1>
        <ConfirmEmailBanner email={page.email} back={page.here}>
          Invitations are shown to the owner of the address they were sent to: open the link, and
          you will come straight back here to accept or dismiss.
        </ConfirmEmailBanner>
      </main>
    );
  }

  if (page.state === "unavailable") {
    return (
      <main className="lg-page">
        <h1>Invitation not available</h1>
        <p>
          There is no open invitation for <strong>{page.email}</strong> here. It may have been sent
          to another e-mail address, or it was already answered or withdrawn.
        </p>
        <p>
          <Link to={page.home}>Go to your leagues</Link>
        </p>
      </main>
    );
  }

  const { league, home } = page;
  return (
    <main className="lg-page">
      <h1>Join {league.name}?</h1>
      <p>
        {league.invitedBy ? (
          <>
            <strong>{league.invitedBy}</strong> invited you to this mini league.
          </>
        ) : (
          "You are invited to this mini league."
        )}{" "}
        Members score from their own teams; the league's score is their average.
      </p>
      <MembersTable members={league.members} />
      <div className="lg-actions">
        <Form method="post" action={LEAGUE_ACTION} className="lg-inline">
          <input type="hidden" name="intent" value="accept" />
          <input type="hidden" name="leagueId" value={league.id} />
          <input type="hidden" name="redirectTo" value={home} />
          <button type="submit" className="lg-button">
            Accept
          </button>
        </Form>
        <Form method="post" action={LEAGUE_ACTION} className="lg-inline">
          <input type="hidden" name="intent" value="dismiss" />
          <input type="hidden" name="leagueId" value={league.id} />
          <input type="hidden" name="redirectTo" value={home} />
          <button type="submit" className="lg-button lg-button--ghost">
            Dismiss
          </button>
        </Form>
      </div>
    </main>
  );
}
