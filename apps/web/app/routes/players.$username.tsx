import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import chartStyles from "~/components/charts/charts.css?url";
import { PlayerPage } from "~/features/profiles/player-page";
import { loadPlayerPage } from "~/features/profiles/profiles.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chartStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.player.username ?? "Player"} · Gravity Fantasy` },
];

export function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadPlayerPage(request, context, params.username ?? "");
}

export default function PlayerRoute() {
  return <PlayerPage data={useLoaderData<typeof loader>()} />;
}
