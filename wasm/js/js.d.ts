/** pqverify/js: every suite compiled to JavaScript, for engines without WebAssembly (React Native's Hermes, jitless engines). */
export * from './api.js';
