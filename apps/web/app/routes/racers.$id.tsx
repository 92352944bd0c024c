import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import chartStyles from "~/components/charts/charts.css?url";
import { loadRacerPage } from "~/features/profiles/profiles.server";
import { RacerPage } from "~/features/profiles/racer-page";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chartStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.racer.firstName} ${data.racer.lastName} · Gravity Fantasy`
      : "Racer · Gravity Fantasy",
  },
];

export function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadRacerPage(request, context, params.id ?? "");
}

export default function RacerRoute() {
  return <RacerPage data={useLoaderData<typeof loader>()} />;
}
