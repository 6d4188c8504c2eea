import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built to static files the server serves at /studio (docs/studio.md): hashed names under
// assets/ (cached for a year), index.html served for every other /studio path.
export default defineConfig({
  root: import.meta.dirname,
  base: '/studio/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 600 },
});
