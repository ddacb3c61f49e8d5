// Export name and FIPS name of every suite, in pqverify's order.
export const SUITES = [
  ['ml_dsa44', 'ML-DSA-44'], ['ml_dsa65', 'ML-DSA-65'], ['ml_dsa87', 'ML-DSA-87'],
  ['slh_dsa_sha2_128s', 'SLH-DSA-SHA2-128s'], ['slh_dsa_sha2_128f', 'SLH-DSA-SHA2-128f'],
  ['slh_dsa_sha2_192s', 'SLH-DSA-SHA2-192s'], ['slh_dsa_sha2_192f', 'SLH-DSA-SHA2-192f'],
  ['slh_dsa_sha2_256s', 'SLH-DSA-SHA2-256s'], ['slh_dsa_sha2_256f', 'SLH-DSA-SHA2-256f'],
  ['slh_dsa_shake_128s', 'SLH-DSA-SHAKE-128s'], ['slh_dsa_shake_128f', 'SLH-DSA-SHAKE-128f'],
  ['slh_dsa_shake_192s', 'SLH-DSA-SHAKE-192s'], ['slh_dsa_shake_192f', 'SLH-DSA-SHAKE-192f'],
  ['slh_dsa_shake_256s', 'SLH-DSA-SHAKE-256s'], ['slh_dsa_shake_256f', 'SLH-DSA-SHAKE-256f'],
];
