import { pushResults } from "~/features/api/results-push.server";

/**
 * `POST /api/v1/admin/events/:id/results`: a timing system's results, provisional unless
 * `?final=1`, with an admin API token (docs/decisions/0171). Nothing here answers a GET.
 */
export const action = pushResults;
export const loader = pushResults;
