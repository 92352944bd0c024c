/**
 * `GET /embed/v1/hello?n=2`: the embed script's first call on a page. It answers whether the
 * page's origin may use the widgets (so the script can say so in the console instead of showing
 * broken widgets) and counts the `n` widgets shown for the partner owning that origin
 * (docs/decisions/0091-embed-origin-check.md, 0092-partner-stats.md).
 *
 * Readable from any origin (`Access-Control-Allow-Origin: *`): it says nothing but yes or no
 * about the caller's own origin. Never cached, or loads would go uncounted.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { helloResponse } from "~/features/embed/hello.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => helloResponse(request, context);
