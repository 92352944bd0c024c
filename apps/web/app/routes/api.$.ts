/**
 * Every path under `/api/` that no API version answers (`/api/v2/...`, `/api/`, typos): the same
 * JSON 404 as an unknown `/api/v1` path, never the site's HTML page (docs/decisions/0086).
 */
export { action, loader } from "./api.v1.$";
