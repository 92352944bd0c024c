/**
 * Server rendering (Remix's Node entry) plus three things of ours: the request's CSP nonce on
 * every inline script, `Cache-Control: private, no-store` on anything rendered for a signed-in
 * player, and error logs that are one line and carry no player data.
 */
import { PassThrough } from "node:stream";
import type {
  ActionFunctionArgs,
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  LoaderFunctionArgs,
} from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { getUser } from "./utils/auth.server";
import { loadParts } from "./utils/deferred-part";
import { logError } from "./utils/log.server";

// server.js points error logs at its JSON logger through the build's entry module.
export { setErrorSink } from "./utils/log.server";

import { passwordWork } from "./utils/password.server";

// server.js wraps every route's action with it: a save the database cannot take is a 503.
export { guardActions } from "./utils/cannot-save.server";

/**
 * Why this process should be sent no new requests now, or null: server.js's /readyz asks
 * (docs/decisions/0150-abuse-proof-load.md).
 */
export function busyReason(): string | null {
  return passwordWork.full ? "password checks are queuing" : null;
}

import { NonceProvider } from "./utils/nonce";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

/**
 * A page or data for a signed-in player must not be kept by the browser or any cache. The root
 * loader has usually looked the session up already (`known`); otherwise it is looked up here.
 */
async function markPrivate(
  request: Request,
  context: AppLoadContext,
  headers: Headers,
  known?: boolean,
) {
  if (!request.headers.get("Cookie")) return;
  let signedIn = known;
  if (signedIn === undefined) {
    try {
      signedIn = (await getUser(request, context)) !== null;
    } catch {
      // Cannot tell: keep it private.
      signedIn = true;
    }
  }
  if (signedIn) headers.set("Cache-Control", "private, no-store");
}

/** Whether the root loader found a signed-in player, when it ran for this response. */
function rootSaw(remixContext: EntryContext): boolean | undefined {
  const root = remixContext.staticHandlerContext.loaderData?.root as { user?: unknown } | undefined;
  return root && "user" in root ? root.user != null : undefined;
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  await markPrivate(request, loadContext, responseHeaders, rootSaw(remixContext));
  // An address may render a deferred part (the login dialog, a rider's details: they work
  // without JavaScript); the browser fetches their code apart, here it must be at hand. Once.
  await loadParts();
  const nonce = loadContext.cspNonce ?? "";
  // Crawlers get the whole page at once; browsers get the shell first.
  const waitForAll = isbot(request.headers.get("user-agent")) || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html");
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer
          context={remixContext}
          url={request.url}
          abortDelay={ABORT_DELAY}
          nonce={nonce}
        />
      </NonceProvider>,
      {
        nonce,
        ...(waitForAll ? { onAllReady: ready } : { onShellReady: ready }),
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell reject above and reach handleError; log only later ones.
          if (shellRendered) logError(`render ${new URL(request.url).pathname}`, error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1000);
  });
}

export const handleDataRequest: HandleDataRequestFunction = async (
  response,
  { request, context },
) => {
  await markPrivate(request, context, response.headers);
  return response;
};

/** Errors thrown by loaders, actions and rendering (not thrown Responses, which are answers). */
export function handleError(
  error: unknown,
  { request }: LoaderFunctionArgs | ActionFunctionArgs,
): void {
  // A client that went away is not an error of ours; nor is Remix's own 404 or 405 for a path
  // or method no route takes.
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logError(`${request.method} ${new URL(request.url).pathname}`, error, {
    requestId: request.headers.get("X-Request-Id") ?? undefined,
  });
}
