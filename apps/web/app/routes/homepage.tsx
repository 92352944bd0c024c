import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadHome } from "~/features/home/home.server";
import { HomeScreen } from "~/features/home/home-screen";

export const meta: MetaFunction = () => [{ title: "Your events · Gravity Fantasy" }];

/** Where a login lands (spec): the event list with a greeting. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return loadHome(request, context);
}

export default function Homepage() {
  const { events, competitions, user, notice, timeZone } = useLoaderData<typeof loader>();
  return (
    <HomeScreen
      events={events}
      competitions={competitions}
      user={user}
      notice={notice}
      timeZone={timeZone}
    />
  );
}
