/** /admin/results: import an event's official results (features/admin/results-page.tsx). */
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ResultsPage } from "~/features/admin/results-page";
import {
  type ResultsActionData,
  resultsAction,
  resultsLoader,
} from "~/features/admin/results-upload.server";
import { requireAdmin } from "~/utils/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return resultsLoader(request, context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const answer = await resultsAction(request, context, admin);
  return data(answer.data, { status: answer.status });
}

export default function AdminResults() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as ResultsActionData | undefined;
  return <ResultsPage page={page} answer={answer} />;
}
