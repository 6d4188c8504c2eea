import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built to static files the server serves at /studio (docs/studio.md): hashed names under
// assets/ (cached for a year), index.html served for every other /studio path.
export default defineConfig({
  root: import.meta.dirname,
  base: '/studio/',
  plugins: [react()],
  // `npx vite packages/studio`: the sources with hot reload, the API of a server started on :3000.
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 600 },
});
