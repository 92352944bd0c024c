import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { logout } from "~/features/auth/login.server";

/** Logging out is a POST (a link could be triggered by any page); a GET just goes home. */
export function loader() {
  return redirect("/");
}

export function action({ request, context }: ActionFunctionArgs) {
  return logout(request, context);
}
