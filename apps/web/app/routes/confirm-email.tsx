import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import {
  CONFIRM_PATH,
  type ConfirmEmailResult,
  EMAIL_ALREADY_CONFIRMED,
} from "~/features/account/email-confirmation";
import {
  confirmEmailAction,
  confirmEmailLoader,
} from "~/features/account/email-confirmation.server";
import { keepRetryAfter } from "~/utils/headers";

// A 429 keeps its exact Retry-After (Remix sends only the cookies of an action's headers).
export const headers = keepRetryAfter;

export const meta: MetaFunction = () => [
  { title: "Confirm your e-mail address · Gravity Fantasy" },
  { name: "robots", content: "noindex" },
];

export function loader({ request, context }: LoaderFunctionArgs) {
  return confirmEmailLoader(request, context);
}

export function action({ request, context }: ActionFunctionArgs) {
  return confirmEmailAction(request, context);
}

/**
 * Where the e-mailed link lands: whose address it confirms, and a button to confirm it (opening
 * the link confirms nothing by itself). Also answers "send the link again".
 */
export default function ConfirmEmail() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ConfirmEmailResult | undefined;
  const busy = useNavigation().state === "submitting";
  const id = useId();
  const next = result?.next || page.next;
  const onward = (
    <p>
      <Link to={next || "/homepage"} className="button button--primary button--block">
        {next ? "Continue" : "Go to the game"}
      </Link>
    </p>
  );

  return (
    <main className="page page--narrow auth-page">
      <div className="card">
        <h1 id={`${id}-title`}>Confirm your e-mail address</h1>
        {result ? (
          <>
            <p
              className={result.ok ? "notice" : "form-error"}
              role={result.ok ? "status" : "alert"}
            >
              {result.message}
            </p>
            {onward}
          </>
        ) : page.state === "ready" ? (
          <Form
            method="post"
            action={CONFIRM_PATH}
            className="auth-form"
            aria-labelledby={`${id}-title`}
          >
            <p>
              Confirm that <strong className="confirm-email-banner__email">{page.email}</strong> is
              your address, for the Gravity Fantasy account <strong>{page.username}</strong>.
            </p>
            <p className="field-hint">
              Did not create this account? Do not confirm: close this page, and nobody can use your
              address in the game's leagues or reminders.
            </p>
            <input type="hidden" name="intent" value="confirm" />
            <input type="hidden" name="token" value={page.token} />
            <input type="hidden" name="next" value={page.next} />
            <button
              type="submit"
              className="button button--primary button--block"
              aria-disabled={busy}
            >
              {busy ? "Confirming..." : "Confirm my e-mail address"}
            </button>
          </Form>
        ) : page.confirmed ? (
          <>
            <p className="notice" role="status">
              {EMAIL_ALREADY_CONFIRMED}
            </p>
            {onward}
          </>
        ) : (
          <>
            <p className="form-error" role="alert">
              This confirmation link is invalid, already used or expired.
            </p>
            {page.canResend ? (
              <Form method="post" action={CONFIRM_PATH}>
                <input type="hidden" name="intent" value="resend" />
                <input type="hidden" name="redirectTo" value={page.next} />
                <button type="submit" className="button button--primary button--block">
                  Send me a new link
                </button>
              </Form>
            ) : (
              <p>
                <Link to={`/login?redirectTo=${encodeURIComponent(CONFIRM_PATH)}`}>Log in</Link> to
                ask for a new one.
              </p>
            )}
          </>
        )}
      </div>
    </main>
  );
}
