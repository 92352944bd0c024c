import { createContext, useContext } from "react";

/**
 * The request's Content-Security-Policy nonce (made per request by the server), for the inline
 * scripts Remix renders. In the browser it is empty: browsers hide nonces from the page, and the
 * scripts have run by then.
 */
export const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
