import type { AuthMode } from "./auth-result";

/**
 * The URL parameters that open the login modal on arrival: `?login=1` (or `?login=signup`) with
 * an optional `redirectTo`. `requireUser()` sends visitors to such a link.
 */
export function fromUrl(search: string): { mode: AuthMode; redirectTo: string | null } | null {
  const params = new URLSearchParams(search);
  const login = params.get("login");
  if (!login) return null;
  return { mode: login === "signup" ? "signup" : "login", redirectTo: params.get("redirectTo") };
}

/** The address without the login parameters: where closing the modal leaves the visitor. */
export function withoutLoginParams(pathname: string, search: string, hash: string): string {
  const params = new URLSearchParams(search);
  params.delete("login");
  params.delete("redirectTo");
  const rest = params.toString();
  return `${pathname}${rest ? `?${rest}` : ""}${hash}`;
}

/** An `open()` call, for the modal's host: the `count`-th, and what had the focus. */
export interface LoginRequest {
  mode: AuthMode;
  redirectTo: string | null;
  opener: HTMLElement | null;
  count: number;
}
