/**
 * The licences of the open-source packages in the browser's code, at this address: the production
 * build writes the file (vite.config.ts), since the minified code no longer carries their
 * comments (docs/decisions/0180). Without imports: the build's config reads it too.
 */
export const LICENSES_LINK = "/third-party-licenses.txt";
