// The suite table the package ships (generated from pqverify-core by `cargo xtask tables`).
export { INTERFACES, SUITES, PREHASHES } from '../js/tables.js';
