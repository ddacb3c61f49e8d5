import { defineConfig } from 'vite';

// The page and its worker use top-level await (the pqverify package initialises on import).
export default defineConfig({
  base: './',
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true },
  worker: { format: 'es' },
  server: { fs: { allow: ['..'] } },
});
