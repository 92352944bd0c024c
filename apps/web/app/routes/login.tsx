import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PASSWORD_RESET_DONE } from "~/features/account/messages";
import { AuthPage } from "~/features/auth/auth-page";
import { AFTER_LOGIN, authAction } from "~/features/auth/login.server";
import { getUser } from "~/utils/auth.server";
import { keepRetryAfter } from "~/utils/headers";
import { safeRedirect } from "~/utils/safe-redirect";

// A 429 keeps its exact Retry-After (Remix sends only the cookies of an action's headers).
export const headers = keepRetryAfter;

export const meta: MetaFunction = () => [{ title: "Login · Gravity Fantasy" }];

/**
 * The login form as a page: where the modal's form posts, and what works without JavaScript.
 * `?reset=done` (where a saved new password lands) says the password changed; only that known
 * value shows anything, so a crafted link cannot put words on the page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const redirectTo = params.get("redirectTo");
  if (await getUser(request, context)) throw redirect(safeRedirect(redirectTo, AFTER_LOGIN));
  return {
    redirectTo: redirectTo ? safeRedirect(redirectTo, "") || null : null,
    notice: params.get("reset") === "done" ? PASSWORD_RESET_DONE : null,
  };
}

export function action({ request, context }: ActionFunctionArgs) {
  return authAction("login", request, context);
}

export default function LoginPage() {
  const { redirectTo, notice } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().formAction === "/login";
  return (
    <AuthPage mode="login" result={result} redirectTo={redirectTo} busy={busy} notice={notice} />
  );
}
