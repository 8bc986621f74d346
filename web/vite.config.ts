import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The web app build: hashed assets under /assets (served with a year-long immutable cache by the
 * service), index.html for every app route. `npm start` rebuilds it when its sources change.
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
  },
});
