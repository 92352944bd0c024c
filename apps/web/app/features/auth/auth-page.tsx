import { useId } from "react";
import { AUTH_TITLES, AuthForm } from "./auth-form";
import type { AuthMode, AuthResult } from "./auth-result";

/** The /login and /signup pages: the modal's form on a page of its own. */
export function AuthPage(props: {
  mode: AuthMode;
  result?: AuthResult | null;
  redirectTo: string | null;
  busy: boolean;
  /** A word before the form (e.g. the password just changed), until the form answers. */
  notice?: string | null;
}) {
  const headingId = useId();
  return (
    <main className="page page--narrow auth-page">
      <div className="card">
        <h1 id={headingId}>{AUTH_TITLES[props.mode]}</h1>
        {props.notice && !props.result ? (
          <p className="notice" role="status">
            {props.notice}
          </p>
        ) : null}
        <AuthForm
          mode={props.mode}
          result={props.result}
          redirectTo={props.redirectTo}
          busy={props.busy}
          headingId={headingId}
        />
      </div>
    </main>
  );
}
