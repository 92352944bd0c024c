import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import { useEffect, useState } from "react";
import { embedAuthAction, loadEmbedAuth } from "~/features/embed/auth.server";
import { parseAuthMessage } from "../../embed/messages";

export const meta: MetaFunction = () => [{ title: "Sign in to play · Gravity Fantasy" }];

/** The sign-in popup of the partner iframe: the normal login, then one confirmation. */
export const loader = ({ request, context }: LoaderFunctionArgs) => loadEmbedAuth(request, context);

export const action = ({ request, context }: ActionFunctionArgs) =>
  embedAuthAction(request, context);

export default function EmbedAuth() {
  const { partnerName, origin, username } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const [status, setStatus] = useState<"idle" | "sent" | "no-opener">("idle");

  useEffect(() => {
    if (!result?.token) return;
    const opener = window.opener as Window | null;
    if (!opener || opener.closed) {
      setStatus("no-opener");
      return;
    }
    // The opener is our iframe on the partner's page: same origin as this window. Naming our
    // origin as the target means no other window (the partner page, an ad) can receive it.
    const message = parseAuthMessage({ type: "gf:auth", token: result.token });
    if (!message) throw new Error("The sign-in answered with a malformed token.");
    opener.postMessage(message, window.location.origin);
    setStatus("sent");
    window.close();
  }, [result]);

  return (
    <main className="page page--narrow embed-auth">
      <h1>Play on {partnerName}</h1>
      <p>
        {partnerName} (<code>{origin}</code>) shows the Gravity Fantasy team builder. Continue to
        build and save your team there. {partnerName} never sees your e-mail or password.
      </p>
      {status === "sent" ? (
        <p role="status">You are signed in on {partnerName}. You can close this window.</p>
      ) : status === "no-opener" ? (
        <p role="alert">
          This window was not opened from {partnerName}&apos;s page. Go back to it and choose
          &ldquo;Sign in to build your team&rdquo; again.
        </p>
      ) : (
        <Form method="post">
          <button type="submit" className="button button--primary" disabled={busy}>
            Continue as {username}
          </button>
        </Form>
      )}
      <p className="hint">
        Not {username}? Log out of Gravity Fantasy in this browser, then sign in again from{" "}
        {partnerName}.
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const message =
    isRouteErrorResponse(error) && typeof error.data?.message === "string"
      ? error.data.message
      : "Signing in for this site is not possible right now.";
  return (
    <main className="page page--narrow">
      <h1>Cannot sign in here</h1>
      <p role="alert">{message}</p>
    </main>
  );
}
