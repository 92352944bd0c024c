import { vitePlugin as remix } from "@remix-run/dev";
import license from "rollup-plugin-license";
import { defineConfig, type Rollup } from "vite";
import { LICENSES_LINK } from "./app/features/layout/licenses";
import { WIDGETS_IMPORT, widgetsSourceFile } from "./embed/widgets-source.mjs";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const ROOT_ROUTE = new URL("./app/root.tsx", import.meta.url).pathname;

/**
 * What the root route imports, directly or not, every page loads: two files rather than the
 * dozen small chunks Rollup splits it into by which routes share each module (gzip compresses
 * one file better than many; about 2 KB less per page). `framework`: React and Remix, which
 * change only with an upgrade, so a deploy leaves them cached; `layout`: the app's shell
 * (header, footer, login dialog). docs/decisions/0164-client-bundle-budget.md.
 */
function shellChunks(): Rollup.ManualChunksOption {
  let shell: Set<string> | undefined;
  return (id, { getModuleIds, getModuleInfo }) => {
    if (!shell) {
      shell = new Set();
      const todo = [...getModuleIds()].filter(
        (m) => m === ROOT_ROUTE || m.startsWith(`${ROOT_ROUTE}?`),
      );
      for (let m = todo.pop(); m !== undefined; m = todo.pop()) {
        if (shell.has(m)) continue;
        shell.add(m);
        todo.push(...(getModuleInfo(m)?.importedIds ?? []));
      }
    }
    if (!shell.has(id)) return undefined;
    return id.includes("/node_modules/") ? "framework" : "layout";
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    remix({
      ignoredRouteFiles: ["**/*.test.{ts,tsx}", "**/*.css"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  resolve: {
    alias: [
      { find: "~", replacement: new URL("./app", import.meta.url).pathname },
      // `@game/widgets/<entry>` from the package's source: its build carries its own copy of
      // the core helpers it uses (the published package cannot depend on private core), which
      // the app's pages then loaded twice (docs/decisions/0178). Its stylesheet stays the built one.
      {
        find: WIDGETS_IMPORT,
        replacement: "$1",
        customResolver: (entry: string) => widgetsSourceFile(entry || "index"),
      },
    ],
  },
  // @game/db finds its committed migrations next to its own files: keep it out of the bundle.
  ssr: { external: ["@game/db"] },
  // The browser's build only: the server's is one file. Terser rather than esbuild's minifier:
  // 4 KB gzip less on every page, most of it React's (docs/decisions/0178).
  build: isSsrBuild
    ? {}
    : {
        // The embed's browsers (decision 0145): from Chrome 91 on, `?.` is kept as written.
        target: ["chrome91", "edge91", "firefox90", "safari15"],
        minify: "terser",
        terserOptions: { module: true, compress: { passes: 2 }, format: { comments: false } },
        rollupOptions: {
          output: { manualChunks: shellChunks() },
          plugins: [
            license({
              thirdParty: {
                // The licences of the packages bundled here, where the About page links them.
                // Terser drops the comments that carried them: about 0.5 KB gzip on every page.
                output: new URL(`./build/client${LICENSES_LINK}`, import.meta.url).pathname,
              },
            }),
          ],
        },
      },
  server: { port: 3000 },
}));
