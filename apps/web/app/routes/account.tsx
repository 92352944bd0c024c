import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useId, useRef } from "react";
import {
  accountSessions,
  changePasswordAction,
  signOutEverywhere,
} from "~/features/account/account.server";
import type { AccountFormResult } from "~/features/account/messages";
import { NewPasswordField } from "~/features/account/new-password-field";
import { requireUser } from "~/utils/auth.server";
import { keepRetryAfter } from "~/utils/headers";
import { readForm } from "~/utils/request.server";

// A 429 keeps its exact Retry-After (Remix sends only the cookies of an action's headers).
export const headers = keepRetryAfter;

export const meta: MetaFunction = () => [{ title: "Your account · Gravity Fantasy" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return {
    username: user.username,
    email: user.email,
    sessions: await accountSessions(context, user.id),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const intent = (await readForm(request.clone())).get("intent");
  if (intent === "sign-out-everywhere") return signOutEverywhere(request, context);
  if (intent === "change-password") return changePasswordAction(request, context);
  return new Response("Unknown action.", { status: 400 });
}

/** The signed-in player's account: change the password, sign out on every device. */
export default function Account() {
  const { username, email, sessions } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as AccountFormResult | undefined;
  const busy = useNavigation().formData?.get("intent");
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);

  // A saved password: clear the fields and read the confirmation out.
  useEffect(() => {
    if (result?.ok) {
      formRef.current?.reset();
      noticeRef.current?.focus();
    }
  }, [result]);

  const currentError = result?.fieldErrors?.current;
  return (
    <main className="page page--narrow account-page">
      <h1>Your account</h1>
      <p>
        Signed in as <strong>{username}</strong> ({email}).
      </p>

      <section className="card" aria-labelledby={`${id}-password`}>
        <h2 id={`${id}-password`}>Change password</h2>
        {result?.ok ? (
          <p className="notice" role="status" tabIndex={-1} ref={noticeRef}>
            {result.message}
          </p>
        ) : null}
        <Form method="post" className="auth-form" noValidate ref={formRef}>
          <input type="hidden" name="intent" value="change-password" />
          {result?.formError ? (
            <p className="form-error" role="alert">
              {result.formError}
            </p>
          ) : null}
          <div className="field">
            <label htmlFor={`${id}-current`}>Current password</label>
            <input
              id={`${id}-current`}
              name="current"
              type="password"
              autoComplete="current-password"
              required
              aria-invalid={currentError ? true : undefined}
              aria-describedby={currentError ? `${id}-current-error` : undefined}
            />
            {currentError ? (
              <p className="field-error" id={`${id}-current-error`}>
                {currentError}
              </p>
            ) : null}
          </div>
          <NewPasswordField
            key={result?.ok ? "saved" : "editing"}
            label="New password"
            error={result?.fieldErrors?.password}
          />
          <p className="field-hint">
            Your other devices will be signed out; this one stays signed in.
          </p>
          <button
            type="submit"
            className="button button--primary button--block"
            aria-disabled={busy === "change-password"}
          >
            {busy === "change-password" ? "Saving..." : "Change password"}
          </button>
        </Form>
      </section>

      <section className="card" aria-labelledby={`${id}-everywhere`}>
        <h2 id={`${id}-everywhere`}>Sign out everywhere</h2>
        <p>
          {sessions === 1
            ? "You are signed in on this device only."
            : `You are signed in on ${sessions} devices or browsers.`}{" "}
          Lost a phone, or signed in on a shared computer? End every session, this one included, and
          partner sites' game widgets too.
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value="sign-out-everywhere" />
          <button
            type="submit"
            className="button button--block"
            aria-disabled={busy === "sign-out-everywhere"}
          >
            Sign out everywhere
          </button>
        </Form>
      </section>

      <section className="card" aria-labelledby={`${id}-reminders`}>
        <h2 id={`${id}-reminders`}>Deadline reminders</h2>
        <p>
          One e-mail per round, 24 hours before the lock, when your team needs you.{" "}
          <Link to="/account/reminders">Turn reminders on or off</Link>
        </p>
      </section>
    </main>
  );
}
