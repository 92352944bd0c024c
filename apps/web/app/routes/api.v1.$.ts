import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  ApiError,
  apiGet,
  CACHE,
  corsHeaders,
  errorResponse,
  preflight,
} from "~/features/api/api.server";

const unknownPath = () =>
  new ApiError(404, "not_found", "There is no such API endpoint. See /api/v1/openapi.json.");

/**
 * Any other path under `/api/v1`: a JSON 404 in the API's error shape, with the API's headers
 * (CORS for partner origins, `no-store`, the rate limit), instead of the site's HTML home screen.
 */
export const loader = (args: LoaderFunctionArgs) =>
  apiGet(args, CACHE.catalogue, async () => {
    throw unknownPath();
  });

/** Writes to an unknown path: still a 404 (not the 405 of a real, read-only endpoint). */
export async function action({ request, context }: ActionFunctionArgs): Promise<Response> {
  if (request.method === "OPTIONS") return preflight(request, context);
  return errorResponse(unknownPath(), await corsHeaders(request, context));
}
