/**
 * `GET /embed/v1/hello?n=2`: the embed script's first call on a page. It answers whether the
 * page's origin may use the widgets (so the script can say so in the console instead of showing
 * broken widgets) and counts the `n` widgets shown for the partner owning that origin
 * (docs/decisions/0091-embed-origin-check.md, 0092-partner-stats.md).
 *
 * With `w` (one per widget: its element's name and attributes), an allowed page also gets those
 * widgets' first API answers in `data`, so their data comes with their code (decision 0182).
 *
 * Readable from any origin (`Access-Control-Allow-Origin: *`): it says yes or no about the
 * caller's own origin, and its data only where the API's CORS would let that origin read it.
 * Never cached, or loads would go uncounted.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { helloResponse } from "~/features/embed/hello.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => helloResponse(request, context);
