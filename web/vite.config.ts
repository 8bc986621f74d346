import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The web app build: hashed assets under /assets (served with a year-long immutable cache by the
 * service), index.html for every app route. `npm start` rebuilds it when its sources change.
 * A second entry, src/pages.css, is the stylesheet of the server-rendered pages; the manifest
 * (dist/.vite/manifest.json) tells the service its hashed name.
 */
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    manifest: true,
    rollupOptions: { input: { app: 'index.html', pages: 'src/pages.css' } },
  },
});
