/* Undefined for n >= 32: kilnc --sanitize=undefined makes that a report. */
int kiln_test_shift(int n) {
  return 1 << n;
}
