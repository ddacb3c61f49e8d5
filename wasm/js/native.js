// The native build: the platform package's Node-API addon (pqverify-linux-x64-gnu, …),
// which the Node, Bun and Deno entries (node-entry.js) use where it is installed and
// loads, with WebAssembly everywhere else. Chosen once, at import, silently: any failure
// to load (no build for this platform, a C library it was not built for, Deno without
// --allow-ffi, Node's permission model without --allow-addons, PQVERIFY_ENGINE=wasm)
// means WebAssembly, never an error at import and never a permission prompt.

import { call, packageError } from './api.js';

/** `promise` (an engine's), its rejections as the package throws them. */
const settled = (promise) => promise.catch((e) => {
  throw packageError(e);
});

/** The variable that chooses the engine: "wasm" forces WebAssembly, "native" requires the native build. */
export const ENGINE_ENV = 'PQVERIFY_ENGINE';

/** The platform package of this OS and CPU (glibc builds), or null where none is built. */
export function platformPackage() {
  const { platform, arch } = process;
  return platform === 'linux' && (arch === 'x64' || arch === 'arm64') ? `pqverify-linux-${arch}-gnu` : null;
}

/** Whether Deno granted `permission` (a descriptor) already: querying never prompts. */
function denoGranted(permission) {
  return globalThis.Deno.permissions?.querySync?.(permission)?.state === 'granted';
}

/** PQVERIFY_ENGINE, read without asking Deno for the environment (undefined if not granted). */
function requested() {
  try {
    if (globalThis.Deno) return denoGranted({ name: 'env', variable: ENGINE_ENV }) ? globalThis.Deno.env.get(ENGINE_ENV) : undefined;
    return process.env[ENGINE_ENV];
  } catch {
    return undefined;
  }
}

/**
 * The engine this process asks for and gets: `{ addon, why, required }`: the addon (or
 * null), why not (or null), and whether PQVERIFY_ENGINE=native requires it.
 * `require` loads the platform package (a CommonJS require of the entry's file).
 */
export function loadNative(require) {
  const wanted = requested() || 'auto';
  if (!['auto', 'wasm', 'native'].includes(wanted)) {
    return { addon: null, why: `${ENGINE_ENV}=${wanted} is not "wasm" or "native"`, required: true };
  }
  const required = wanted === 'native';
  if (wanted === 'wasm') return { addon: null, why: `${ENGINE_ENV}=wasm chose it`, required };
  const name = platformPackage();
  if (name === null) return { addon: null, why: `no native build exists for ${process.platform}-${process.arch} yet`, required };
  if (globalThis.Deno && !denoGranted({ name: 'ffi' })) {
    return { addon: null, why: 'Deno loads native code only with --allow-ffi', required };
  }
  try {
    return { addon: loadAddon(require, name), why: null, required };
  } catch (e) {
    const reason = e?.code === 'MODULE_NOT_FOUND' ? 'is not installed' : `did not load (${e?.code ?? e?.message ?? e})`;
    return { addon: null, why: `the platform package ${name} ${reason}`, required };
  }
}

/**
 * The platform package `name`'s addon: first where npm, pnpm and bun put it, beside this
 * package (a relative path: Node's package resolution costs a millisecond or more on its
 * first use), else wherever `require` resolves the package (Yarn's Plug'n'Play).
 */
function loadAddon(require, name) {
  try {
    return require(`../${name}/pqverify.${name.slice('pqverify-'.length)}.node`);
  } catch (e) {
    if (e?.code !== 'MODULE_NOT_FOUND') throw e;
    return require(name);
  }
}

/** The native engine of server.js's makeServer: the addon's thread pool and dual verifier. */
export function nativeEngine(addon) {
  return {
    verifyMany: (heads, fields, threads) => settled(call(() => addon.verifyMany(heads, fields, threads))),
    async prepareValidators(suite, format, keys, threads) {
      const set = await settled(call(() => addon.prepareValidators(suite, format, keys, threads)));
      return {
        verify: (message, ctx, signers, signatures, n) => settled(call(() => set.verify(message, ctx, signers, signatures, n))),
        release: () => set.release(),
      };
    },
    dual(o) {
      const liboqs = o.liboqs ?? process.env.PQVERIFY_LIBOQS;
      if (typeof liboqs !== 'string' || liboqs === '') {
        throw new TypeError('pqverify: the dual check needs a liboqs shared library: pass { liboqs: "/path/to/liboqs.so" } or set PQVERIFY_LIBOQS');
      }
      if (typeof o.log !== 'string' || o.log === '') {
        throw new TypeError(`pqverify: the dual check needs a disagreement log: pass { log: "/path/to/disagreements.jsonl" } (or "-" for standard error), got ${o.log === undefined ? 'none' : typeof o.log}`);
      }
      const count = (value, name, fallback) => {
        if (value === undefined) return fallback;
        if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
          throw new RangeError(`pqverify: option ${name} of createDualVerifier must be an integer from 0 to 2^32 - 1, got ${String(value)}`);
        }
        return value;
      };
      const audit = count(o.auditRejections, 'auditRejections', 1);
      const cache = count(o.keyCache, 'keyCache', 1024);
      const dual = call(() => new addon.DualVerifier(liboqs, o.mode ?? 'enforce', o.log, audit, cache));
      return {
        verify: ([suite, iface, hash, format], [sig, msg, key, ctx]) => call(() => dual.verify(suite, format, iface, hash, sig, msg, ctx, key)),
        stats: () => ({ disagreements: dual.disagreements, faults: dual.faults, sinkFailures: dual.sinkFailures }),
        describe: () => dual.describe(),
      };
    },
  };
}
