/**
 * /competitions/:slug: a competition's page: what it is, its podium once it is over, its rounds
 * (each linking to its event page), the top of its table (linking to the full ranking) and its
 * rules in words, from the same rules the team rule applies. An unknown slug shows the home
 * screen with status 404, as any unknown page does.
 */
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Competition } from "~/features/competitions/competition-page";
import { loadCompetitionPage } from "~/features/competitions/competitions.server";
import { loadHome } from "~/features/home/home.server";
import { HomeScreen } from "~/features/home/home-screen";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data && "competition" in data
    ? [
        { title: `${data.competition.name} · Gravity Fantasy` },
        {
          name: "description",
          content:
            data.competition.description ||
            `${data.competition.name}: its rounds and its rules on Gravity Fantasy.`,
        },
      ]
    : [{ title: "Page not found · Gravity Fantasy" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const page = await loadCompetitionPage(request, context, params.slug ?? "");
  if (!page) return data({ notFound: await loadHome(request, context) }, { status: 404 });
  return page;
}

export default function CompetitionPage() {
  const loaded = useLoaderData<typeof loader>();
  if ("notFound" in loaded) {
    const { events, competitions, user, timeZone } = loaded.notFound;
    return (
      <HomeScreen
        events={events}
        competitions={competitions}
        user={user}
        timeZone={timeZone}
        notFound
      />
    );
  }
  return <Competition {...loaded} />;
}
