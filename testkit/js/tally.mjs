// The checks' tally, shared by the page checks: `check(ok, what)` prints a TAP-like
// line, `finish()` prints the closing `N passed, M failed` (which cargo xtask test
// reads) and exits non-zero on any failure.
export function tally() {
  let passed = 0;
  const failures = [];
  const check = (ok, what) => {
    if (ok) passed++;
    else failures.push(what);
    console.log(`${ok ? 'ok' : 'not ok'} - ${what}`);
  };
  const finish = () => {
    console.log(`${passed} passed, ${failures.length} failed`);
    process.exit(failures.length === 0 ? 0 : 1);
  };
  return { check, finish };
}
