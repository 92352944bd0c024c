import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadHome } from "~/features/home/home.server";
import { HomeScreen } from "~/features/home/home-screen";

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadHome(request, context);
}

export default function Home() {
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
