// The principal branch W0 of the Lambert W function for real z in [-1/e, 0], the one numeric
// routine of the goodput calculator written by hand (every formula it feeds is generated from the
// package's SymPy expressions: goodput-formulas.js). Accurate to a few units in the last place:
// tests/test_calculator.py compares it with scipy.special.lambertw and with mpmath at 50 digits.
//
// W0(z) solves w e^w = z. Near the branch point -1/e the problem is solved for u = 1 + w, with
// r = 1 + e z computed without cancellation (e split in two doubles, the product e z exact by
// Dekker's two-product), from (u - 1) e^u + 1 = r: very close to the branch point by its series in
// p = sqrt(2 r) alone, further away by Halley's method from that series. Away from the branch
// point, Halley's method on w e^w = z itself, from the series of W at 0.
(function (root) {
  "use strict";

  const E_HI = 2.718281828459045;       // e rounded to a double
  const E_LO = 1.4456468917292502e-16;  // e - E_HI
  const SPLIT = 134217729;              // 2^27 + 1, Veltkamp's splitter

  // 1 + e z to about 1e-32 absolute, for z near -1/e (where e z is near -1).
  function onePlusEz(z) {
    const product = E_HI * z;
    const zc = SPLIT * z, zh = zc - (zc - z), zl = z - zh;
    const ec = SPLIT * E_HI, eh = ec - (ec - E_HI), el = E_HI - eh;
    const error = ((eh * zh - product) + eh * zl + el * zh) + el * zl;  // E_HI z - product, exactly
    return (product + 1) + error + E_LO * z;  // product + 1 is exact (Sterbenz) for e z in [-2, -1/2]
  }

  // W = -1 + p - p^2/3 + 11 p^3/72 - ..., the series at the branch point in p = sqrt(2 (1 + e z)).
  const BRANCH = [-1, 1, -1 / 3, 11 / 72, -43 / 540, 769 / 17280, -221 / 8505, 680863 / 43545600,
    -1963 / 204120, 226287557 / 37623398400];
  function branchSeries(p) {
    let w = 0;
    for (let k = BRANCH.length - 1; k >= 0; k--) { w = w * p + BRANCH[k]; }
    return w;
  }

  // g(u) = (u - 1) e^u + 1 = sum_{k>=2} (k - 1) u^k / k!, without cancellation for small u.
  function g(u) {
    if (u > 0.5) { return (u - 1) * Math.exp(u) + 1; }
    let term = u * u / 2, sum = 0;
    for (let k = 2; k < 40 && term !== 0; k++) {
      sum += (k - 1) * term;
      term *= u / (k + 1);
    }
    return sum;
  }

  function lambertW0(z) {
    if (typeof z !== "number" || Number.isNaN(z)) { return NaN; }
    if (z === 0) { return 0; }
    if (z > 0) { return NaN; }  // the calculator needs [-1/e, 0) only
    const r = onePlusEz(z);
    if (r < 0) { return r > -1e-15 ? -1 : NaN; }  // a z rounded just below -1/e is the branch point
    const p = Math.sqrt(2 * r);
    if (p < 2e-3) { return branchSeries(p); }  // the next term, ~p^10, is below 1e-26
    if (r < 0.5) {
      // Halley on F(u) = g(u) - r, F' = u e^u, F'' = (u + 1) e^u, u = 1 + w in (0, 0.8).
      let u = 1 + branchSeries(p);
      for (let i = 0; i < 20; i++) {
        const eu = Math.exp(u), f = g(u) - r, f1 = u * eu, f2 = (u + 1) * eu;
        const step = f / (f1 - f2 * f / (2 * f1));
        u -= step;
        if (Math.abs(step) <= 2e-16 * u) { break; }
      }
      return u - 1;
    }
    // Halley on f(w) = w e^w - z, f' = (w + 1) e^w, f'' = (w + 2) e^w, w in (-0.6, 0).
    let w = z * (1 - z * (1 - 1.5 * z));
    if (w < -0.5) { w = -0.5; }
    for (let i = 0; i < 40; i++) {
      const ew = Math.exp(w), f = w * ew - z, f1 = (w + 1) * ew, f2 = (w + 2) * ew;
      const step = f / (f1 - f2 * f / (2 * f1));
      w -= step;
      if (Math.abs(step) <= 2e-16 * Math.abs(w)) { break; }
    }
    return w;
  }

  root.goodputLambertW0 = lambertW0;
})(globalThis);
