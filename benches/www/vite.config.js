import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

// The peers' versions, for the browser's environment record.
const versionOf = (pkg) => JSON.parse(readFileSync(new URL(`./node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;

// liboqs-js (a benchmark peer) loads its Emscripten module per algorithm through
// `import(modulePath)`, which no bundler can follow; written as the literal path it
// names, Vite emits those modules as chunks (fetched only when a factory is called).
const liboqsStaticImports = {
  name: 'liboqs-js-static-imports',
  transform(code, id) {
    if (!id.includes('@oqs/liboqs-js/src/algorithms/')) return null;
    const file = code.match(/`(\.\.\/\.\.\/\.\.\/\.\.\/dist\/[\w-]+\.min\.js)`/)?.[1];
    return file ? code.replace('await import(modulePath)', `await import('${file}')`) : null;
  },
};

export default defineConfig({
  base: './',
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true },
  plugins: [liboqsStaticImports],
  define: {
    __NOBLE_VERSION__: JSON.stringify(versionOf('@noble/post-quantum')),
    __LIBOQS_JS_VERSION__: JSON.stringify(versionOf('@oqs/liboqs-js')),
  },
  worker: { format: 'es', plugins: () => [liboqsStaticImports] },
  server: { fs: { allow: ['../..'] } },
});
