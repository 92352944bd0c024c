import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import embedStyles from "~/features/embed/embed.css?url";
import { EmbedTeamBuilder } from "~/features/embed/embed-team-builder";
import { embedTeamSetupAction, loadEmbedTeamSetup } from "~/features/embed/team-setup.server";

/** Shown inside partner iframes: the root layout leaves out the site's header and footer. */
export const handle = { layout: "bare" };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: embedStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Team builder: ${data.event.name} · Gravity Fantasy` : "Gravity Fantasy" },
];

/** Who may frame this page is decided per partner by the loader (or its refusal). */
export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) =>
  errorHeaders ?? loaderHeaders;

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  loadEmbedTeamSetup(request, context);

export const action = ({ request, context }: ActionFunctionArgs) =>
  embedTeamSetupAction(request, context);

/** The action never changes what the loader read (racers, event): no reload after a save. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  defaultShouldRevalidate,
}) => (formMethod === "POST" ? false : defaultShouldRevalidate);

export default function EmbedTeamSetup() {
  const data = useLoaderData<typeof loader>();
  return <EmbedTeamBuilder {...data} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const message =
    isRouteErrorResponse(error) && typeof error.data?.message === "string"
      ? error.data.message
      : "The team builder could not be loaded. Please try again later.";
  return (
    <div className="gf-root embed-page">
      <p className="embed-error" role="alert">
        {message}
      </p>
    </div>
  );
}
