/** pqverify without automatic initialisation. */
export * from './api.js';
/** Initialises asynchronously (by default from the .wasm shipped with the package). */
export declare function init(source?: URL | string | Response | BufferSource | WebAssembly.Module): Promise<void>;
/** Initialises synchronously from the .wasm bytes or a compiled module. */
export declare function initSync(bytesOrModule: BufferSource | WebAssembly.Module): void;
