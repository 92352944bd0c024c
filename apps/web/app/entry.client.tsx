import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { quietAbortedRequests } from "~/utils/aborted-requests";
import { loadParts } from "~/utils/deferred-part";

quietAbortedRequests(window);

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

// The deferred parts this address rendered on the server (a `?login=1` dialog): their code must
// be here before hydrating (docs/decisions/0178). Route modules have declared them by now (they
// run before this entry). If one cannot come, the page hydrates without it and React renders
// the page again on its own.
loadParts(new URL(window.location.href))
  .catch(() => {})
  .finally(hydrate);
