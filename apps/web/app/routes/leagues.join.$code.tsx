/** A league's shareable invite link: see which league it is, sign in, join. */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { ConfirmEmailBanner } from "~/features/account/confirm-email-banner";
import { joinAction, loadJoinPage } from "~/features/leagues/join.server";
import "~/features/leagues/leagues.css";

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadJoinPage(request, context, params.code);

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  joinAction(request, context, params.code);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title:
      data && data.state !== "invalid"
        ? `Join ${data.league.name} | Gravity Fantasy`
        : "Invite link | Gravity Fantasy",
  },
  { name: "robots", content: "noindex" },
];

export default function JoinLeague() {
  const page = useLoaderData<typeof loader>();
  const navigation = useNavigation();

  if (page.state === "invalid") {
    return (
      <main className="lg-page">
        <h1>This invite link does not work</h1>
        <p>
          The league may have been deleted, or its owner made a new link. Ask your friend for the
          current one.
        </p>
        <p>
          <Link to="/">Back to the game</Link>
        </p>
      </main>
    );
  }

  const { league } = page;
  const size = `${league.memberCount} ${league.memberCount === 1 ? "member" : "members"}`;
  return (
    <main className="lg-page">
      <h1>Join {league.name}</h1>
      <p>
        A Gravity Fantasy mini league with {size}. Members battle with their own teams of six real
        downhill racers; the league's score is their average.
      </p>
      {page.state === "visitor" && (
        <>
          <p>Create your free account or log in, and you will come straight back here to join.</p>
          <div className="lg-actions">
            <a className="lg-button" href={page.signupHref}>
              Create your account
            </a>
            <a className="lg-button lg-button--ghost" href={page.loginHref}>
              Log in
            </a>
          </div>
        </>
      )}
      {page.state === "member" && (
        <p>
          You are already in this league.{" "}
          <Link to={`${page.home}#league-${league.id}`}>See it</Link>
        </p>
      )}
      {page.state === "removed" && (
        <p>
          The owner of this league removed you from it, so this link cannot add you again. If you
          would like to come back, ask the owner to invite you.
        </p>
      )}
      {page.state === "unconfirmed" && (
        <ConfirmEmailBanner email={page.email ?? ""} back={page.here}>
          Once you open it you can join this league: the link brings you straight back here.
        </ConfirmEmailBanner>
      )}
      {page.state === "can-join" && (
        <Form method="post">
          <button type="submit" className="lg-button" disabled={navigation.state !== "idle"}>
            {navigation.state === "submitting" ? "Joining…" : `Join ${league.name}`}
          </button>
        </Form>
      )}
    </main>
  );
}
