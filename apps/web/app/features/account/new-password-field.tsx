import { PASSWORD_HINT } from "@game/core/constants";
import { checkNewPassword } from "@game/core/password-policy";
import { useId, useState } from "react";

/**
 * A field for choosing a password (reset, change). The hint states the rules; when the field is
 * left, the browser runs the same policy as the server and says what is wrong. The server's
 * answer (`error`) is shown until the player edits the field.
 */
export function NewPasswordField(props: { label: string; name?: string; error?: string }) {
  const id = useId();
  const [local, setLocal] = useState<string | null>(null);
  const [edited, setEdited] = useState(false);
  const error = local ?? (edited ? undefined : props.error);
  return (
    <div className="field">
      <label htmlFor={`${id}-input`}>{props.label}</label>
      <input
        id={`${id}-input`}
        name={props.name ?? "password"}
        type="password"
        autoComplete="new-password"
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        spellCheck={false}
        onChange={() => {
          setEdited(true);
          setLocal(null);
        }}
        onBlur={(event) => {
          const value = event.currentTarget.value;
          setLocal(value ? checkNewPassword(value) : null);
        }}
      />
      <p className="field-hint" id={`${id}-hint`}>
        {PASSWORD_HINT}
      </p>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
