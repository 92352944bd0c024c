import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { forgotPasswordAction } from "~/features/account/account.server";
import type { AccountFormResult } from "~/features/account/messages";
import { Honeypot } from "~/features/auth/auth-form";
import { keepRetryAfter } from "~/utils/headers";

// A 429 keeps its exact Retry-After (Remix sends only the cookies of an action's headers).
export const headers = keepRetryAfter;

export const meta: MetaFunction = () => [{ title: "Forgot your password? · Gravity Fantasy" }];

export function action({ request, context }: ActionFunctionArgs) {
  return forgotPasswordAction(request, context);
}

/** Asks for the account's e-mail and sends a one-hour link to choose a new password. */
export default function ForgotPassword() {
  const result = useActionData<typeof action>() as AccountFormResult | undefined;
  const busy = useNavigation().formAction === "/forgot-password";
  const id = useId();
  const emailError = result?.fieldErrors?.email;
  return (
    <main className="page page--narrow auth-page">
      <div className="card">
        <h1 id={`${id}-title`}>Forgot your password?</h1>
        {result?.ok ? (
          <>
            <p className="notice" role="status">
              {result.message}
            </p>
            <p>
              No e-mail after a few minutes? Check the spam folder, or{" "}
              <Link to="/forgot-password" reloadDocument>
                ask again
              </Link>
              .
            </p>
          </>
        ) : (
          <Form
            method="post"
            action="/forgot-password"
            className="auth-form"
            noValidate
            aria-labelledby={`${id}-title`}
          >
            <p>
              Enter the e-mail address of your account and we will send you a link to choose a new
              password.
            </p>
            {result?.formError ? (
              <p className="form-error" role="alert">
                {result.formError}
              </p>
            ) : null}
            <div className="field">
              <label htmlFor={`${id}-email`}>Email</label>
              <input
                id={`${id}-email`}
                name="email"
                type="email"
                autoComplete="email"
                aria-required="true"
                aria-invalid={emailError ? true : undefined}
                aria-describedby={emailError ? `${id}-email-error` : undefined}
                defaultValue={result?.values?.email}
                spellCheck={false}
              />
              {emailError ? (
                <p className="field-error" id={`${id}-email-error`}>
                  {emailError}
                </p>
              ) : null}
            </div>
            <Honeypot />
            <button
              type="submit"
              className="button button--primary button--block"
              aria-disabled={busy}
            >
              {busy ? "Sending..." : "Send me a link"}
            </button>
          </Form>
        )}
        <p className="auth-switch">
          Remembered it? <Link to="/login">Log in</Link>
        </p>
      </div>
    </main>
  );
}
