/** pqverify without automatic initialisation. */
export * from './api.js';

/** What `init` accepts: a URL (or its string), a fetch Response, the .wasm bytes, or a compiled module. */
export type InitSource = string | { readonly href: string } | { arrayBuffer(): Promise<ArrayBuffer> } | ArrayBuffer | ArrayBufferView | object;

/** Initialises asynchronously (by default from the .wasm shipped with the package). */
export declare function init(source?: InitSource): Promise<void>;
/** Initialises synchronously from the .wasm bytes (or a compiled `WebAssembly.Module`). */
export declare function initSync(bytesOrModule: ArrayBuffer | ArrayBufferView | object): void;
