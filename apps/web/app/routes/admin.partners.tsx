/**
 * /admin/partners: sites allowed to embed the widgets (features/partners/partners-page.tsx).
 */
import {
  type ActionFunctionArgs,
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import chartStyles from "~/components/charts/charts.css?url";
import {
  type PartnersActionResult,
  partnersAction,
  partnersPage,
} from "~/features/partners/partners.server";
import { PartnersPage } from "~/features/partners/partners-page";
import { requireAdmin } from "~/utils/auth.server";
import { readForm } from "~/utils/request.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chartStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return partnersPage(request, context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { result, status } = await partnersAction(await readForm(request), context, admin);
  return data(result, { status });
}

export default function AdminPartners() {
  const page = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as PartnersActionResult | undefined;
  return <PartnersPage page={page} posted={posted} />;
}
