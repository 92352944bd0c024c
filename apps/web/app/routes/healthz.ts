/**
 * Liveness for load balancers and the benchmarks: answers as soon as the process serves requests,
 * without touching the database or rendering a page.
 */
export function loader() {
  return new Response("ok\n", {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
