import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { resetPasswordAction, resetPasswordLoader } from "~/features/account/account.server";
import { type AccountFormResult, RESET_LINK_INVALID } from "~/features/account/messages";
import { NewPasswordField } from "~/features/account/new-password-field";
import { keepRetryAfter } from "~/utils/headers";

// A 429 keeps its exact Retry-After (Remix sends only the cookies of an action's headers).
export const headers = keepRetryAfter;

export const meta: MetaFunction = () => [{ title: "Choose a new password · Gravity Fantasy" }];

export function loader({ request, context }: LoaderFunctionArgs) {
  return resetPasswordLoader(request, context);
}

export function action({ request, context }: ActionFunctionArgs) {
  return resetPasswordAction(request, context);
}

/**
 * Where the e-mailed link lands: choose a new password (the link works once, for one hour). A
 * saved password goes on to the login page, which says so.
 */
export default function ResetPassword() {
  const link = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as AccountFormResult | undefined;
  const busy = useNavigation().formAction?.startsWith("/reset-password") ?? false;
  const id = useId();
  const invalid = !link.valid || result?.formError === RESET_LINK_INVALID;
  return (
    <main className="page page--narrow auth-page">
      <div className="card">
        <h1 id={`${id}-title`}>Choose a new password</h1>
        {invalid ? (
          <>
            <p className="form-error" role="alert">
              {RESET_LINK_INVALID}
            </p>
            <p>
              <Link to="/forgot-password">Send me a new link</Link>
            </p>
          </>
        ) : (
          <Form
            method="post"
            // The token stays in the URL so the page still knows the link after an answer.
            action={`/reset-password?token=${encodeURIComponent(link.token ?? "")}`}
            className="auth-form"
            noValidate
            aria-labelledby={`${id}-title`}
          >
            {result?.formError ? (
              <p className="form-error" role="alert">
                {result.formError}
              </p>
            ) : null}
            <input type="hidden" name="token" value={link.token ?? ""} />
            <NewPasswordField label="New password" error={result?.fieldErrors?.password} />
            <p className="field-hint">Every device signed in to your account will be signed out.</p>
            <button
              type="submit"
              className="button button--primary button--block"
              aria-disabled={busy}
            >
              {busy ? "Saving..." : "Save new password"}
            </button>
          </Form>
        )}
      </div>
    </main>
  );
}
