/**
 * GET /img/racer_portrait/{picture}: a racer's portrait from the database, the 128 px square
 * (`?size=large`: the 480 px one). Unknown names are a 404 (the pages draw the generated avatar
 * instead). Cached a day, then revalidated by a strong ETag (a 304 costs one small query), see
 * docs/decisions/0112-serving-portraits.md.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { portraitResponse } from "~/features/profiles/portrait.server";

export const loader = ({ request, params, context }: LoaderFunctionArgs) =>
  portraitResponse(request, params.picture ?? "", context);
