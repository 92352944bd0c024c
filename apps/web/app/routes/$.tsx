import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadHome } from "~/features/home/home.server";
import { HomeScreen } from "~/features/home/home-screen";

export const meta: MetaFunction = () => [
  { title: "Page not found · Gravity Fantasy" },
  { name: "robots", content: "noindex" },
];

/** Any unknown path shows the home screen (spec), with the honest HTTP status. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return data(await loadHome(request, context), { status: 404 });
}

export default function NotFound() {
  const { events, competitions, user, timeZone } = useLoaderData<typeof loader>();
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
