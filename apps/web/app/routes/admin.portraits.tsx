/**
 * /admin/portraits: where the dashboard's portrait form posts. With JavaScript the form posts in
 * the background and stays on the dashboard; without, this page shows the result and the form.
 */
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { PortraitUpload } from "~/features/admin/portrait-upload";
import { uploadPortraits } from "~/features/admin/portrait-upload.server";
import { requireAdmin } from "~/utils/auth.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { result, status } = await uploadPortraits(request, context, admin);
  return data(result, { status, headers: { "Cache-Control": "no-store" } });
}

export default function AdminPortraits() {
  const result = useActionData<typeof action>();
  return (
    <>
      <PortraitUpload serverResult={result} />
      <p>
        <Link to="/admin">Back to the racers</Link>
      </p>
    </>
  );
}
