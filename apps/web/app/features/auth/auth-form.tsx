import { MIN_AGE, PASSWORD_HINT } from "@game/core/constants";
import { Form, Link } from "@remix-run/react";
import {
  type ComponentProps,
  type ComponentType,
  type FormEvent,
  type MouseEvent,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import {
  type AuthField,
  type AuthMode,
  type AuthResult,
  authPath,
  HONEYPOT_FIELD,
} from "./auth-result";

export const AUTH_TITLES: Record<AuthMode, string> = {
  login: "Login",
  signup: "Create Your Account",
};

export interface AuthFormProps {
  mode: AuthMode;
  /** The server's answer to the last post, if any. */
  result?: AuthResult | null;
  redirectTo?: string | null;
  /** True while posting. */
  busy?: boolean;
  /** Remix's `<Form>` (a page) or a fetcher's `<fetcher.Form>` (the modal). */
  FormComponent?: ComponentType<ComponentProps<typeof Form>>;
  /** Switches to the other mode in place; without it the switch link goes to the other page. */
  onSwitchMode?: (mode: AuthMode, event: MouseEvent<HTMLAnchorElement>) => void;
  /** Id of the heading naming the form (the dialog's or the page's). */
  headingId?: string;
}

const FIELD_ORDER: AuthField[] = ["username", "email", "password"];

let authCheck: typeof import("./auth-validation") | undefined;
let loadingCheck = false;

/**
 * Fetches the shared check (zod, the name rules and the common-password list: more than the rest
 * of the page's own code) once a visitor starts on the form: every page has the login dialog, few
 * visitors open it (docs/decisions/0164).
 */
function loadAuthCheck() {
  if (authCheck || loadingCheck) return;
  loadingCheck = true;
  import("./auth-validation")
    .then((check) => {
      authCheck = check;
    })
    // Not fetched (offline): the server checks the post, and the next focus tries again.
    .catch(() => {})
    .finally(() => {
      loadingCheck = false;
    });
}

/**
 * The Login / Create Your Account form. It validates with the same schema as the server before
 * posting (so mistakes show at once) and works as a plain form post without JavaScript. The
 * check arrives when the form is first focused; a post sent before it has (typed before the
 * page's JavaScript ran) is checked by the server alone, which answers the same messages.
 */
export function AuthForm(props: AuthFormProps) {
  const { mode, result, redirectTo, busy = false, onSwitchMode } = props;
  const FormComponent = props.FormComponent ?? Form;
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const [local, setLocal] = useState<AuthResult | null>(null);

  // The latest answer wins: a new server answer replaces the browser's own check.
  const [answered, setAnswered] = useState(result);
  if (answered !== result) {
    setAnswered(result);
    setLocal(null);
  }
  const shown = local ?? (result?.mode === mode ? result : null);
  const fieldErrors = shown?.fieldErrors ?? {};

  // After an answer, take the player to the first thing to fix.
  useEffect(() => {
    if (!shown) return;
    const field = FIELD_ORDER.find((f) => shown.fieldErrors?.[f]);
    if (field) formRef.current?.querySelector<HTMLInputElement>(`[name="${field}"]`)?.focus();
    else if (shown.formError) alertRef.current?.focus();
  }, [shown]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (busy) {
      event.preventDefault();
      return;
    }
    if (!authCheck) {
      loadAuthCheck();
      return;
    }
    const fields = Object.fromEntries(new FormData(event.currentTarget));
    const checked = authCheck.validateAuthForm(mode, fields);
    if (checked.ok) {
      setLocal(null);
      return;
    }
    event.preventDefault();
    setLocal(checked.result);
  };

  const other: AuthMode = mode === "login" ? "signup" : "login";
  const errorId = (field: AuthField) => `${id}-${field}-error`;
  const field = (
    name: AuthField,
    label: string,
    input: { type: string; autoComplete: string; hint?: string },
  ) => {
    const error = fieldErrors[name];
    const hintId = input.hint ? `${id}-${name}-hint` : undefined;
    const describedBy = [error ? errorId(name) : null, hintId].filter(Boolean).join(" ");
    return (
      <div className="field">
        <label htmlFor={`${id}-${name}`}>{label}</label>
        <input
          id={`${id}-${name}`}
          name={name}
          type={input.type}
          autoComplete={input.autoComplete}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          defaultValue={name === "password" ? undefined : shown?.values?.[name]}
          spellCheck={false}
          autoCapitalize={name === "username" ? "none" : undefined}
        />
        {input.hint ? (
          <p className="field-hint" id={hintId}>
            {input.hint}
          </p>
        ) : null}
        {error ? (
          <p className="field-error" id={errorId(name)}>
            {error}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <FormComponent
      ref={formRef}
      method="post"
      action={mode === "login" ? "/login" : "/signup"}
      className="auth-form"
      noValidate
      onFocus={loadAuthCheck}
      onSubmit={onSubmit}
      aria-labelledby={props.headingId}
    >
      {shown?.formError ? (
        <p className="form-error" role="alert" ref={alertRef} tabIndex={-1}>
          {shown.formError}
        </p>
      ) : null}
      {mode === "signup"
        ? field("username", "Username", { type: "text", autoComplete: "username" })
        : null}
      {field("email", "Email", { type: "email", autoComplete: "email" })}
      {field("password", "Password", {
        type: "password",
        autoComplete: mode === "login" ? "current-password" : "new-password",
        hint: mode === "signup" ? PASSWORD_HINT : undefined,
      })}
      {mode === "login" ? (
        <p className="auth-forgot">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      ) : null}
      <Honeypot />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      {mode === "signup" ? (
        <p className="field-hint">
          By creating an account you accept the <Link to="/tos">Terms of Service</Link> and confirm
          you are {MIN_AGE} or older. See how we treat your data in the{" "}
          <Link to="/privacypolicy">Privacy Policy</Link>.
        </p>
      ) : null}
      <button type="submit" className="button button--primary button--block" aria-disabled={busy}>
        {busy
          ? mode === "login"
            ? "Logging in..."
            : "Creating your account..."
          : mode === "login"
            ? "Log in"
            : "Create account"}
      </button>
      <p className="auth-switch">
        {mode === "login" ? "New to Gravity Fantasy?" : "Already have an account?"}{" "}
        <Link
          to={authPath(other, redirectTo)}
          onClick={
            onSwitchMode
              ? (event) => {
                  event.preventDefault();
                  onSwitchMode(other, event);
                }
              : undefined
          }
        >
          {AUTH_TITLES[other]}
        </Link>
      </p>
    </FormComponent>
  );
}

/** Hidden from people and screen readers; bots fill it and are refused. */
export function Honeypot() {
  return (
    <div className="honeypot" aria-hidden="true">
      <label>
        Leave this field empty
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}
