/**
 * POST /admin/racers: the racer upload as JSON in, JSON out (the dashboard's script, or a tool
 * posting a CSV file as multipart). Same checks and service as the dashboard form and the CLI.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import {
  isJsonRequest,
  uploadFromForm,
  uploadFromJson,
} from "~/features/admin/racer-upload.server";
import { requireAdmin } from "~/utils/auth.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { result, status } = isJsonRequest(request)
    ? await uploadFromJson(request, context, admin)
    : await uploadFromForm(request, context, admin);
  return Response.json(result, { status, headers: { "Cache-Control": "no-store" } });
}

/** The upload tool and the racer list live on the dashboard itself. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return redirect("/admin");
}
