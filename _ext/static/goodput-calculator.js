// The goodput calculator page (book/calculator.md): reads the form, checks the inputs as the
// package does, and shows the plan by the exact model and by first order. No formula is written
// here: every one comes from goodput-formulas.js, generated at build time from the package's
// SymPy expressions (goodput.symbolic.calculator_formulas), with the package's units, number
// pattern, error messages, tolerances and levers. Loaded after goodput-lambertw.js and
// goodput-formulas.js. The parsing and formatting functions are exposed as goodputCalculator
// so that the tests can run them against the package's. The optional inputs of what a planner
// knows (model and storage, the restart's parts, spares, recovery without rollback, planned
// stops, a price of storage bandwidth) are read with the package's patterns and words and
// derived as goodput.params.derive derives them (tests/test_calculator_planner.py).
(function (root) {
  "use strict";

  const F = root.goodputFormulas;
  const K = root.goodputConstants;
  const MESSAGES = K.messages;
  const UNITS = K.minutes_per_unit;
  const DAY = UNITS.day;
  const YEAR = UNITS.year;

  // ------------------------------------------------------------------ reading what was typed

  class InputError extends Error {
    constructor(expected) { super(expected); this.expected = expected; }
  }

  const NUMBER = new RegExp("^(?:" + K.number_pattern + ")$");
  const SPACE = "[ \\t\\n\\r\\f\\v]*";  // Python's \s under re.ASCII
  const DURATION = new RegExp(
    "^" + SPACE + "(" + K.number_pattern + "|[-+]?\\.?(?:nan|inf(?:inity)?))" + SPACE + "([a-z]*)" + SPACE + "$", "i");

  // goodput.units._COMPOUND: a duration in parts, as formatDuration writes one ("1 min 30 s")
  const PART = "(?:\\d+(?:\\.\\d*)?|\\.\\d+)" + SPACE + "[a-z]+";
  const COMPOUND = new RegExp("^" + SPACE + PART + "(?:[ \\t\\n\\r\\f\\v]+" + PART + ")+" + SPACE + "$", "i");
  const PARTS = /(\d+(?:\.\d*)?|\.\d+)[ \t\n\r\f\v]*([a-z]+)/gi;

  // Python's str.strip(): the characters str.isspace() calls whitespace, at both ends.
  function pythonStrip(text) {
    let start = 0, end = text.length;
    while (start < end && K.python_whitespace.indexOf(text[start]) >= 0) { start++; }
    while (end > start && K.python_whitespace.indexOf(text[end - 1]) >= 0) { end--; }
    return text.slice(start, end);
  }

  // goodput.units.parse_duration: minutes, or an InputError saying what was expected.
  function parseDuration(value, options) {
    const opts = options || {};
    const bareUnit = opts.bareUnit === undefined ? null : opts.bareUnit;
    const minutesOf = (number, unit) => {
      if (!Object.prototype.hasOwnProperty.call(UNITS, unit)) {
        throw new InputError(MESSAGES.duration_unit.replace("{unit}", unit));
      }
      return number * UNITS[unit];
    };
    let minutes = 0;
    if (COMPOUND.test(value)) {  // in parts, as formatDuration writes it: their sum
      for (const part of value.matchAll(PARTS)) { minutes += minutesOf(Number(part[1]), part[2].toLowerCase()); }
    } else {
      const match = DURATION.exec(value);
      if (match === null) { throw new InputError(MESSAGES.duration); }
      let number;
      if (NUMBER.test(match[1])) {
        number = Number(match[1]);
      } else {
        const word = match[1].replace(/\./g, "").toLowerCase();
        number = word.indexOf("nan") >= 0 ? NaN : (word[0] === "-" ? -Infinity : Infinity);
      }
      let unit = match[2].toLowerCase();
      if (unit === "") {
        if (bareUnit === null) { throw new InputError(MESSAGES.duration_needs_unit); }
        unit = bareUnit;
      }
      minutes = minutesOf(number, unit);
    }
    if (!Number.isFinite(minutes) || minutes < 0 || (minutes === 0 && !opts.allowZero)) {
      throw new InputError(opts.allowZero ? MESSAGES.duration_non_negative : MESSAGES.duration_positive);
    }
    // goodput.units.SHORTEST: no duration under a microsecond (zero apart, where allowed)
    if (minutes > 0 && minutes < K.shortest_duration) {
      throw new InputError(opts.allowZero ? MESSAGES.duration_shortest_zero : MESSAGES.duration_shortest);
    }
    if (minutes > K.longest_duration) { throw new InputError(MESSAGES.duration_longest); }  // goodput.units.LONGEST
    return minutes;
  }

  // goodput.validate.finite for a string.
  function finite(value, expected) {
    const text = pythonStrip(value);
    if (!NUMBER.test(text)) { throw new InputError(expected); }
    const number = Number(text);
    if (!Number.isFinite(number)) { throw new InputError(expected); }
    return number;
  }

  function positive(value) {
    const number = finite(value, MESSAGES.positive);
    if (number <= 0) { throw new InputError(MESSAGES.positive); }
    return number;
  }

  // goodput.validate.price: above zero (or zero, with `zero`) and at most `most`
  function price(value, most, expected, zero) {
    const number = finite(value, expected);
    if (number < 0 || (number === 0 && !zero) || number > most) { throw new InputError(expected); }
    return number;
  }

  // goodput.validate.whole; with `most`, of at most that too
  function whole(value, least, most) {
    const expected = most === undefined ? MESSAGES.whole.replace("{least}", String(least))
      : MESSAGES.whole_most.replace("{least}", String(least)).replace("{most}", most.toLocaleString("en-US"));
    const number = finite(value, expected);
    if (number !== Math.floor(number) || number < least || (most !== undefined && number > most)) {
      throw new InputError(expected);
    }
    return number;
  }

  function share(value) {
    const number = finite(value, MESSAGES.share);
    if (number < 0 || number > 1) { throw new InputError(MESSAGES.share); }
    return number;
  }

  // goodput.validate.share with its options (open_low, open_high, a message of the caller's).
  function shareOf(value, options) {
    const o = options || {};
    const expected = o.expected || MESSAGES.share;
    const number = finite(value, expected);
    if (number < 0 || number > 1 || (o.openLow && number === 0) || (o.openHigh && number === 1)) {
      throw new InputError(expected);
    }
    return number;
  }

  // goodput.validate.non_negative.
  function nonNegative(value, expected) {
    const message = expected || MESSAGES.non_negative;
    const number = finite(value, message);
    if (number < 0) { throw new InputError(message); }
    return number;
  }

  // goodput.storage._quantity, parse_size and parse_bandwidth: bytes (a bit is an eighth of one), the pattern and the
  // prefixes generated from the package. "20 Gb/s" is bits, "2.5 GB/s" bytes; "20 gb/s" and "20 GB" (as a bandwidth)
  // are refused.
  const QUANTITY = new RegExp("^(?:" + K.quantity_pattern + ")$");
  function quantity(value, expected) {
    const match = QUANTITY.exec(value);
    if (match === null || match.groups.unit === undefined) { throw new InputError(expected); }
    const number = Number(match.groups.number) * K.size_prefixes[match.groups.prefix];
    const unit = match.groups.unit;
    const bits = K.bit_units.indexOf(unit) >= 0;
    return { number: bits ? number / 8 : number, bits: bits, per: match.groups.per !== undefined };
  }

  function parseSize(value) {
    const q = quantity(value, MESSAGES.size);
    if (q.per || q.bits) { throw new InputError(MESSAGES.size); }
    if (!(q.number >= 1)) { throw new InputError(MESSAGES.size_positive); }  // a byte at least
    // goodput.storage: at most storage.LARGEST (an overflow to Infinity included)
    if (q.number > K.largest_size) { throw new InputError(MESSAGES.size_most); }
    return q.number;
  }

  function parseBandwidth(value) {
    const q = quantity(value, MESSAGES.bandwidth);
    if (!q.per) { throw new InputError(MESSAGES.bandwidth); }
    if (!(q.number >= 1)) { throw new InputError(MESSAGES.bandwidth_positive); }
    if (q.number > K.fastest_bandwidth) { throw new InputError(MESSAGES.bandwidth_most); }  // storage.FASTEST
    return q.number;
  }

  // goodput.params.parse_rate: events per hour from "0.036 per hour", "0.87 per day", "2/h".
  const RATE = /^\s*(\S+?)\s*(?:\/|\s+per\s+)\s*([a-zA-Z]+)\s*$/;
  function parseRate(value) {
    const match = RATE.exec(value);
    if (match === null || !Object.prototype.hasOwnProperty.call(UNITS, match[2].toLowerCase())) {
      throw new InputError(MESSAGES.planned_rate);
    }
    const perHour = nonNegative(match[1], MESSAGES.planned_rate) * 60 / UNITS[match[2].toLowerCase()];
    // goodput.params.planned_per_hour: at most one a minute (an overflow to Infinity included)
    if (!(perHour <= K.most_planned_per_hour)) { throw new InputError(MESSAGES.planned_most); }
    return perHour;
  }

  // ------------------------------------------------------------------ writing numbers (goodput.units, goodput.report)

  // x.toExponential(fraction), but a tie (the double exactly halfway, as 122.5 to three digits) rounded to even as
  // Python rounds it, where JavaScript rounds it up.
  function toExponentialHalfEven(x, fraction) {
    const up = x.toExponential(fraction);
    if (!Number.isFinite(x)) { return up; }
    const exact = Math.abs(x).toPrecision(100);  // exact whenever x has 100 digits or fewer, as a tie must
    const digits = exact.replace(/e.*$/, "").replace(".", "").replace(/^0+/, "");
    const kept = fraction + 1;
    if (digits[kept] !== "5" || !/^0*$/.test(digits.slice(kept + 1)) || Number(digits[kept - 1]) % 2 === 1) { return up; }
    const exponent = Number(Math.abs(x).toExponential(20).split("e")[1]);
    const mantissa = digits[0] + (kept > 1 ? "." + digits.slice(1, kept) : "");
    return (x < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+") + Math.abs(exponent);
  }

  // Python's format(x, ".{fraction}f"): x.toFixed(fraction), but a tie (the double exactly halfway, as 1.25 to one
  // decimal) rounded to even as Python rounds it, where JavaScript rounds it up ("1.2", not "1.3"). A tie has
  // fraction + 1 decimals, so x.toFixed(100) writes it exactly.
  function fixed(x, fraction) {
    if (!Number.isFinite(x)) { return x.toFixed(fraction); }
    const a = Math.abs(x), sign = x < 0 || Object.is(x, -0) ? "-" : "";
    if (a >= 1e21) { return sign + BigInt(a).toString() + (fraction > 0 ? "." + "0".repeat(fraction) : ""); }  // whole
    const exact = a.toFixed(100), point = exact.indexOf("."), tail = exact.slice(point + 1 + fraction);
    if (tail[0] !== "5" || !/^0*$/.test(tail.slice(1))) { return sign + a.toFixed(fraction); }
    const kept = exact.slice(0, fraction > 0 ? point + 1 + fraction : point);
    return sign + (Number(kept[kept.length - 1]) % 2 === 0 ? kept : a.toFixed(fraction));  // an odd digit: up, to even
  }

  // Python's format(x, ".{digits}g").
  function formatG(x, digits) {
    if (x === 0) { return "0"; }
    const exponential = toExponentialHalfEven(x, digits - 1);
    const exponent = Number(exponential.slice(exponential.indexOf("e") + 1));
    const strip = (s) => (s.indexOf(".") >= 0 ? s.replace(/0+$/, "").replace(/\.$/, "") : s);
    if (exponent >= -4 && exponent < digits) {  // the same digits written out in fixed notation
      const negative = exponential[0] === "-";
      const ds = exponential.slice(negative ? 1 : 0, exponential.indexOf("e")).replace(".", "");
      const fixed = exponent >= 0 ? ds.slice(0, exponent + 1).padEnd(exponent + 1, "0") +
        (ds.length > exponent + 1 ? "." + ds.slice(exponent + 1) : "") : "0." + "0".repeat(-exponent - 1) + ds;
      return (negative ? "-" : "") + strip(fixed);
    }
    const mantissa = strip(exponential.slice(0, exponential.indexOf("e")));
    const sign = exponent < 0 ? "-" : "+";
    const magnitude = String(Math.abs(exponent)).padStart(2, "0");
    return mantissa + "e" + sign + magnitude;
  }

  // Python's round(): halves to even.
  function roundHalfEven(x) {
    const floor = Math.floor(x), rest = x - floor;
    if (rest > 0.5) { return floor + 1; }
    if (rest < 0.5) { return floor; }
    return floor % 2 === 0 ? floor : floor + 1;
  }

  function significant(x, digits) {
    const d = digits || 3;
    // goodput.units.significant: from a trillion, an exponent, not digits that are not significant
    if (x >= Math.pow(10, d) && x < 1e12) { return roundHalfEven(x).toLocaleString("en-US"); }
    return formatG(x, d);
  }

  // goodput.units.format_duration, to `digits` significant digits (three by default).
  function formatDuration(minutes, digits) {
    const d = digits || 3;
    if (Number.isNaN(minutes)) { return "undefined"; }
    if (minutes < 0) { return "-" + formatDuration(-minutes, d); }
    if (minutes === Infinity) { return "unbounded"; }
    const seconds = minutes * 60;
    if (seconds > 0 && Number(formatG(seconds, d)) < 0.1) { return significant(seconds * 1000, d) + " ms"; }
    if (Math.round(seconds * 1e9) / 1e9 < 60) { return significant(seconds, d) + " s"; }
    if (minutes < 10 && Math.abs(seconds - Math.round(seconds)) < 1e-6) {
      const total = Math.round(seconds), whole = Math.floor(total / 60), rest = total % 60;
      return whole + " min" + (rest ? " " + rest + " s" : "");
    }
    if (minutes < 300) { return significant(minutes, d) + " min"; }
    if (minutes < 2 * DAY) { return significant(minutes / 60, d) + " h"; }
    if (minutes < YEAR) { return significant(minutes / DAY, d) + " days"; }
    const years = significant(Number(formatG(minutes / YEAR, d)), d);  // "115,000 years", not "115,068 years"
    return years + " year" + (years === "1" ? "" : "s");
  }

  // goodput.units.written_minutes: the minutes a duration written by formatDuration stands for, as written.
  function writtenMinutes(text) {
    const sign = text.startsWith("-") ? -1 : 1;
    let minutes = 0;
    for (const m of text.matchAll(/([0-9][0-9,]*(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?)\s*([a-z]+)/g)) {
      minutes += Number(m[1].replace(/,/g, "")) * UNITS[m[2]];
    }
    return sign * minutes;
  }

  // goodput.report.adding_up: durations written so that, as written, they add up to `total` as formatDuration
  // writes it; the part rounded most gets one more digit until they do ("12.24 min", not "12.2 min", in 18.3 min).
  function addingUp(total, parts) {
    const shown = formatDuration(total), digits = parts.map(() => 3), texts = parts.map((x) => formatDuration(x));
    for (let i = 0; i < 6 * parts.length; i++) {
      if (formatDuration(texts.reduce((sum, t) => sum + writtenMinutes(t), 0)) === shown) { break; }
      let worst = 0;
      parts.forEach((x, k) => {
        if (Math.abs(writtenMinutes(texts[k]) - x) > Math.abs(writtenMinutes(texts[worst]) - parts[worst])) { worst = k; }
      });
      digits[worst] += 1;
      texts[worst] = formatDuration(parts[worst], digits[worst]);
    }
    return texts;
  }

  // goodput.storage._scaled, format_size and format_bandwidth: three digits in the largest decimal unit that keeps 1 or more.
  function scaled(x, units) {
    const exponent = Math.min(units.length - 1, x > 0 ? Math.max(0, Math.floor(Math.log10(x) / 3)) : 0);
    return formatG(x / Math.pow(1000, exponent), 3) + " " + units[exponent];
  }
  function formatSize(bytes) { return scaled(bytes, ["B", "kB", "MB", "GB", "TB", "PB"]); }
  function formatBandwidth(bytesPerS) { return scaled(bytesPerS, ["B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s"]); }

  // Python's format(x, ".0%"): x times 100, rounded half to even, and a percent sign.
  function percent0(x) { return String(roundHalfEven(x * 100)) + "%"; }

  // goodput.report._unsigned_zero: `digits` decimals (one by default); one significant digit where that would show
  // zero of a value that is not ("0.01", not "0.0"); never "-0.0".
  function oneDecimal(x, digits) {
    const text = fixed(x, digits === undefined ? 1 : digits);
    if (Number(text) !== 0) { return text; }
    if (Math.abs(x) >= K.negligible_percent) { return formatG(x, 1); }
    return text.replace(/^-/, "");
  }

  // goodput.report.point_decimals: decimals that show a fraction in points to `sig` digits, `least` at least, six at most.
  function pointDecimals(x, sig, least) {
    const pts = 100 * Math.abs(x);
    return !(pts > 0) ? least : Math.min(6, Math.max(least, sig - 1 - Math.floor(Math.log10(pts))));
  }

  // goodput.units.format_wait: an expected wait for repairs, "no time" at zero, "under 1 ms" below a millisecond.
  function formatWait(minutes, none) {
    return minutes <= 0 ? (none || "no time") : minutes < K.wait_floor ? "under 1 ms" : formatDuration(minutes);
  }

  // goodput.report.percent, to `digits` decimals (one by default).
  // A share of wall time is never below zero: a remainder that rounding leaves at -1e-17 is written 0.0%.
  // What a share short of the whole lacks keeps one significant digit where the share would read as all of it
  // (99.94%, not 100.0%).
  function percent(x, digits) {
    const d = digits === undefined ? 1 : digits;
    const v = 100 * Math.max(0, x);
    const text = oneDecimal(v, d);
    const short = 100 - v;
    if (Number(text) < 100 || !(short >= K.negligible_percent)) { return text + "%"; }
    return fixed(v, pointDecimals(short / 100, 1, d)) + "%";
  }

  // goodput.report.percent_sig2: a loss under 1% to two significant digits ("0.14%"), from 1% one decimal; a loss
  // short of the whole as percent writes it ("99.97%", not "100.0%").
  function percentSig2(x) { return percent(x, pointDecimals(Math.max(0, x), 2, 1)); }

  // A lever's gain as the command prints it: "+2.9 points"; optimizer noise below zero is written +0.0. A lever
  // that loses goodput (draining the persistent write, when its drain is long against M) says so, as the book's
  // levers chapter does (goodput.report.gain_text): "a loss of 0.3 points", never a negative number.
  function isLoss(x) { return !(x > -0.0005); }
  // Under a point a gain keeps two significant digits ("+0.50 points"), as goodput.report.gain_text writes it.
  function gain(x) {
    if (isLoss(x)) { return "a loss of " + points(-x); }
    const v = 100 * Math.max(0, x);
    // goodput.report.gain_text: a gain too small for two significant digits, yet a gain, is "under 0.0001 points"
    if (v > 0 && v < K.negligible_percent) { return "under " + K.negligible_percent + " points"; }
    const text = v >= 1 || v === 0 ? oneDecimal(v) : fixed(v, 1 - Math.floor(Math.log10(v)));
    return "+" + text + (Number(text) === 1 ? " point" : " points");
  }

  // ------------------------------------------------------------------ the models

  // A range check of goodput.model.RangeCheck: "below zero", "out of range", "caution" or "ok".
  function rangeStatus(goodput, error) {
    if (goodput <= 0) { return "below zero"; }
    if (error > K.first_order_tolerance) { return "out of range"; }
    if (error > K.first_order_caution) { return "caution"; }
    return "ok";
  }

  // goodput.exact.exact_optimal_interval: the generated Lambert-W optimum, polished as the package polishes it
  // (Newton's method on phi(t) = -t - log(1 - t) = C/M, t = T/M; below C/M = 1e-4, where W0 is ill-conditioned
  // next to its branch point, starting from the branch-point series instead), so that it holds at any C/M.
  function exactOptimal(C, M) {
    const q = C / M;
    if (!(q < K.exact_polish_below)) { return F.exact_optimal_interval(C, M); }
    const root = Math.sqrt(2 * q);
    let t = q < K.exact_small_c_over_m ? root - 2 * q / 3 + q * root / 18 : F.exact_optimal_interval(C, M) / M;
    for (let i = 0; i < 3; i++) {
      let series = 0;
      for (let n = 14; n > 1; n--) { series = (series + 1 / n) * t; }
      series *= t;
      const phi = t < 0.05 ? series : -t - Math.log1p(-t);
      t = t - (phi - q) * (1 - t) / t;
    }
    return M * t;
  }

  // ------------------------------------------------------------------ recovery without rollback, planned stops (spec A)
  //
  // One wrapper around whichever base scheme the inputs give (one tier, a drain, a persistent tier): a share p of
  // interruptions recovered just in time at a cost R_j, q planned stops an hour each costing S_q (one tier: C + R; a
  // drain: C + D + R; a persistent tier: C_p + R_p; less the wait for a repaired node in R and R_p, which a planned
  // stop, taking no node, does not take: goodput.params.Params.stop_saving). The base is evaluated at M' = M / (1 - p); pi = p R_j / M +
  // (q / 60) S_q pauses each minute of running time. Exact: with u = 1 - the base's restart share, every loss L ->
  // L / (1 + u pi), the restart share -> (restart + u pi) / (1 + u pi), goodput -> G / (1 + u pi). First order: the
  // base's losses at M', pi added to the restart loss. For one tier this is goodput.restart.recovery_losses.
  function recoveryOf(x) {
    if (!(x.p > 0) && !(x.q > 0)) { return null; }
    const stop = (x.tiers ? x.Cp + x.Rp : (x.D > 0 ? x.C + x.D + x.R : x.C + x.R)) - (x.wait > 0 ? x.wait : 0);
    return { M: x.M / (1 - x.p), pi: x.p * x.Rj / x.M + (x.q / 60) * stop, stop: stop };
  }

  function baseM(M, rec) { return rec ? rec.M : M; }

  function wrapExact(base, rec) {
    if (!rec) { return base; }
    const u = 1 - base.restart_loss, f = 1 + u * rec.pi, out = Object.assign({}, base);
    out.checkpoint_overhead = base.checkpoint_overhead / f;
    out.lost_work = base.lost_work / f;
    if (base.drain_loss !== null && base.drain_loss !== undefined) { out.drain_loss = base.drain_loss / f; }
    out.restart_loss = (base.restart_loss + u * rec.pi) / f;
    out.goodput = base.goodput / f;
    return out;
  }

  function wrapFirst(base, rec) {
    if (!rec) { return base; }
    const out = Object.assign({}, base);
    out.restart_loss = base.restart_loss + rec.pi;
    out.goodput = Math.max(0, 1 - (out.checkpoint_overhead + out.lost_work + out.restart_loss + (out.drain_loss || 0)));
    return out;
  }

  // The exact model for one tier (with a drain D >= 0) for inputs x: optimum, and losses at T (the optimum if null).
  function exactPlan(x, T) {
    const rec = recoveryOf(x), C = x.C, R = x.R, D = x.D, M = baseM(x.M, rec);
    const drain = D > 0;
    const best = drain ? Math.max(exactOptimal(C, M), D) : exactOptimal(C, M);
    const t = T === null ? best : T;
    return wrapExact({
      optimal_interval_min: best,
      interval_min: t,
      checkpoint_overhead: drain ? F.drain_exact_checkpoint_overhead(C, M, R, t, D) : F.exact_checkpoint_overhead(C, M, R, t),
      lost_work: F.exact_lost_work(C, M, R, t),
      restart_loss: F.exact_restart_loss(M, R),
      drain_loss: drain ? F.drain_exact_drain_loss(C, M, R, t, D) : null,
      goodput: drain ? F.drain_exact_goodput(C, M, R, t, D) : F.exact_goodput(C, M, R, t),
    }, rec);
  }

  // First order for one tier (goodput.model), or with a drain (goodput.tiers, n = 1, s = 0), for inputs x.
  function firstOrderPlan(x, T) {
    const rec = recoveryOf(x), C = x.C, R = x.R, D = x.D, M = baseM(x.M, rec);
    const drain = D > 0;
    const best = drain ? F.tiers_optimal_interval(C, C, 0, 1, M, D) : F.first_order_optimal_interval(C, M);
    const t = T === null ? best : T;
    const plan = wrapFirst(drain ? {
      checkpoint_overhead: F.tiers_checkpoint_overhead(C, C, 1, t),
      lost_work: F.tiers_lost_work(0, 1, M, t),
      restart_loss: F.tiers_restart_loss(R, R, 0, M),
      drain_loss: F.tiers_drain_loss(0, M, D),
      goodput: Math.max(0, F.tiers_goodput(C, C, R, R, 0, 1, M, t, D)),  // as TierLosses.goodput
    } : {
      checkpoint_overhead: F.first_order_checkpoint_overhead(C, t),
      lost_work: F.first_order_lost_work(M, t),
      restart_loss: F.first_order_restart_loss(M, R),
      drain_loss: null,
      goodput: F.first_order_goodput(C, M, R, t),
    }, rec);
    // goodput.exact.range_check: how far first order lies below the exact model, each at its own optimum when
    // no interval is given, both at the interval otherwise.
    plan.error = exactPlan(x, T).goodput - plan.goodput;
    plan.optimal_interval_min = best;
    plan.interval_min = t;
    plan.status = rangeStatus(plan.goodput, plan.error);
    return plan;
  }

  // ------------------------------------------------------------------ the exact tier model (a port of goodput.tiers)
  //
  // With a persistent tier the exact model is goodput.tiers' semi-Markov chain: the states are the moments
  // compute starts, at position i of the cycle with its persistent checkpoint durable (D_i, i = 0..n-1), or at
  // position 0 with it still draining (P). The restart phases after an interruption are generated formulas
  // (tiers_restart_phase, tiers_restart_ok, tiers_persistent_restart_phase); the chain's bookkeeping, the search
  // for the best interval (a scan in log T and Brent's bounded method, as scipy.optimize.minimize_scalar) and
  // the walk for the best whole n follow goodput.tiers line for line. tests/test_calculator.py checks the page
  // against goodput.plan.plan_for on random tiered fleets.

  // goodput.tiers.Tiers for inputs x at cadence n (one tier with a drain: Cp = C, Rp = R, s = 0, n = 1).
  function scheme(x, n) {
    return { C: x.C, R: x.R, D: x.D, Cp: x.tiers ? x.Cp : x.C, Rp: x.tiers ? x.Rp : x.R, s: x.tiers ? x.s : 0, n: n };
  }

  // goodput.tiers.first_order_losses and first_order_optimal_interval.
  function tierFirstOptimal(sc, M, rec) { return F.tiers_optimal_interval(sc.C, sc.Cp, sc.s, sc.n, baseM(M, rec), sc.D); }

  function tierFirstLosses(sc, M, T, rec) {
    if (rec) { return wrapFirst(tierFirstLosses(sc, rec.M, T, null), rec); }
    const out = {
      interval_min: T,
      checkpoint_overhead: F.tiers_checkpoint_overhead(sc.C, sc.Cp, sc.n, T),
      lost_work: F.tiers_lost_work(sc.s, sc.n, M, T),
      restart_loss: F.tiers_restart_loss(sc.R, sc.Rp, sc.s, M),
      drain_loss: F.tiers_drain_loss(sc.s, M, sc.D),
    };
    out.goodput = Math.max(0, 1 - (out.checkpoint_overhead + out.lost_work + out.restart_loss + out.drain_loss));  // as TierLosses.goodput
    return out;
  }

  // The chain's per-state arrays, kept between calls (the search for n evaluates thousands of chains of up to
  // max_every + 1 states): grown when a longer chain comes, and every entry used written before it is read.
  let scratch = { size: 0, arrays: [] };
  function chainArrays(states) {
    if (scratch.size < states) {
      const size = Math.max(states, 2 * scratch.size);
      scratch = { size: size, arrays: Array.from({ length: 11 }, () => new Float64Array(size)) };
    }
    return scratch.arrays;
  }

  // goodput.tiers._steps and exact_losses: the four losses at interval T. As there, every probability is computed as
  // itself, never as one minus its complement (the chance to stay put tends to one when s = 1 and (T + C)/M is
  // large), and the stationary weights are built in logarithms and scaled to a largest of one, so that a chain of
  // a thousand states whose weights underflow still has them.
  function tierExactLosses(sc, M, T) {
    const n = sc.n, s = sc.s, states = n + 1;
    if (s >= 1) { return everyInterruptionSoft(sc, M, T); }
    const rho = F.tiers_restart_phase(sc.R, M, s), ok = F.tiers_restart_ok(sc.R, M, s);
    const restartFails = -Math.expm1(-sc.R / M);
    const notOk = (1 - s) * restartFails / (Math.exp(-sc.R / M) + (1 - s) * restartFails);  // 1 - ok, as itself
    const rhoP = F.tiers_persistent_restart_phase(sc.Rp, M);
    const softRestart = rho + notOk * rhoP;
    const cycleTime = n * T + (n - 1) * sc.C + sc.Cp;
    const [logKeep, stay, reward, time, restart, drain, lengths, logW, logGain, keep, leaves] = chainArrays(states);
    drain.fill(0, 0, states);
    lengths.fill(T + sc.C, 0, states);
    lengths[n - 1] = T + sc.Cp;  // D_{n-1} attempts the persistent segment
    lengths[n] = lengths[0];  // P attempts the cycle's first segment
    for (let i = 0; i < states; i++) {
      logKeep[i] = -lengths[i] / M;  // the attempt succeeds, in logarithms (exact, and never underflows)
      keep[i] = Math.exp(logKeep[i]);
      const fail = -Math.expm1(logKeep[i]);
      stay[i] = fail * s * ok;
      const back = fail * (s * notOk + (1 - s));
      leaves[i] = keep[i] + back;  // 1 - stay, without the cancellation
      restart[i] = fail * (s * softRestart + (1 - s) * rhoP);
      time[i] = M * fail + restart[i];
      reward[i] = keep[i] * T - back * i * T;
    }
    const pending = sc.D > 0;
    if (pending) {  // P: an interruption before the drain ends, and a later one
      const early = -Math.expm1(-sc.D / M);
      const late = Math.exp(-sc.D / M) * -Math.expm1(-Math.max(lengths[n] - sc.D, 0) / M);
      stay[n] = early * s * ok;
      const lost = early * (s * notOk + (1 - s));
      leaves[n] = keep[n] + lost + late;
      reward[n] = keep[n] * T - lost * n * T;
      drain[n] = lost * cycleTime;
    }
    // stationary weights with w(D_0) = 1, in logarithms (see goodput.tiers._steps)
    logGain.fill(0, 0, n);
    for (let i = 1; i < n; i++) { logGain[i] = (i > 1 ? logGain[i - 1] + logKeep[i - 1] : 0) - Math.log(leaves[i]); }
    logW.fill(-Infinity, 0, states);
    logW[0] = 0;
    if (pending) {
      const logLoop = n > 1 ? logGain[n - 1] + logKeep[n - 1] : 0;
      const leave = keep[n] * -Math.expm1(Math.min(logLoop, 0)) + (leaves[n] - keep[n]);
      if (leave > 1e-300) {
        logW[n] = logKeep[0] + logLoop - Math.log(leave);
      } else {  // P never falls back to D_0: the chain lives on P and the positions after it
        logW[0] = -Infinity;
        logW[n] = 0;
      }
    }
    if (n > 1) {
      const a = logKeep[0] + logW[0], b = pending ? logKeep[n] + logW[n] : -Infinity;
      const top = Math.max(a, b);  // numpy.logaddexp
      const logIn = top === -Infinity ? -Infinity : top + Math.log1p(Math.exp(-Math.abs(a - b)));
      for (let i = 1; i < n; i++) { logW[i] = logIn + logGain[i]; }
    }
    let most = -Infinity;
    for (let i = 0; i < states; i++) { most = Math.max(most, logW[i]); }
    let wall = 0, progress = 0, restartTime = 0, drainTime = 0;
    for (let i = 0; i < states; i++) {
      const w = Math.exp(logW[i] - most);
      wall += w * time[i]; progress += w * reward[i]; restartTime += w * restart[i]; drainTime += w * drain[i];
    }
    progress = Math.max(0, progress / wall);
    const overhead = progress * ((n - 1) * sc.C + sc.Cp) / (n * T);
    const out = {
      interval_min: T,
      checkpoint_overhead: overhead,
      restart_loss: restartTime / wall,
      drain_loss: drainTime / wall,
    };
    out.lost_work = Math.max(0, 1 - progress - overhead - out.restart_loss - out.drain_loss);
    out.goodput = Math.max(0, 1 - (out.checkpoint_overhead + out.lost_work + out.restart_loss + out.drain_loss));  // as TierLosses.goodput
    return out;
  }

  // goodput.tiers._every_interruption_soft: s = 1, every interruption restarts from the latest checkpoint; in closed
  // form and in logarithms, so that no e^{L/M} overflows.
  function everyInterruptionSoft(sc, M, T) {
    const n = sc.n, a = (T + sc.C) / M, b = (T + sc.Cp) / M;
    const inner = (n - 1) * (Math.exp(a - b) - Math.exp(-b)) - Math.expm1(-b);
    const logWall = sc.R / M + b + Math.log(inner);
    const goodput = Math.exp(Math.log(n * T / M) - logWall);
    const overhead = goodput * ((n - 1) * sc.C + sc.Cp) / (n * T);
    const restart = -Math.expm1(-sc.R / M);
    const out = { interval_min: T, checkpoint_overhead: overhead, lost_work: Math.max(0, 1 - goodput - overhead - restart),
      restart_loss: restart, drain_loss: 0 };
    out.goodput = Math.max(0, 1 - (out.checkpoint_overhead + out.lost_work + out.restart_loss + out.drain_loss));
    return out;
  }

  // scipy.optimize.minimize_scalar(method="bounded"): Brent's method on [a, b], at most 500 evaluations.
  function minimizeBounded(f, a, b, xatol) {
    const sqrtEps = Math.sqrt(2.2e-16), goldenMean = 0.5 * (3 - Math.sqrt(5));
    const sign = (v) => (v > 0 ? 1 : v < 0 ? -1 : 0);
    let fulc = a + goldenMean * (b - a), nfc = fulc, xf = fulc, rat = 0, e = 0, x = xf;
    let fx = f(x), num = 1, ffulc = fx, fnfc = fx;
    let xm = 0.5 * (a + b), tol1 = sqrtEps * Math.abs(xf) + xatol / 3, tol2 = 2 * tol1;
    while (Math.abs(xf - xm) > (tol2 - 0.5 * (b - a))) {
      let golden = true;
      if (Math.abs(e) > tol1) {
        golden = false;
        let r = (xf - nfc) * (fx - ffulc), q = (xf - fulc) * (fx - fnfc), p = (xf - fulc) * q - (xf - nfc) * r;
        q = 2 * (q - r);
        if (q > 0) { p = -p; }
        q = Math.abs(q);
        r = e;
        e = rat;
        if (Math.abs(p) < Math.abs(0.5 * q * r) && p > q * (a - xf) && p < q * (b - xf)) {
          rat = (p + 0) / q;
          x = xf + rat;
          if ((x - a) < tol2 || (b - x) < tol2) { rat = tol1 * (sign(xm - xf) + ((xm - xf) === 0 ? 1 : 0)); }
        } else {
          golden = true;
        }
      }
      if (golden) {
        e = xf >= xm ? a - xf : b - xf;
        rat = goldenMean * e;
      }
      x = xf + (sign(rat) + (rat === 0 ? 1 : 0)) * Math.max(Math.abs(rat), tol1);
      const fu = f(x);
      num += 1;
      if (fu <= fx) {
        if (x >= xf) { a = xf; } else { b = xf; }
        fulc = nfc; ffulc = fnfc; nfc = xf; fnfc = fx; xf = x; fx = fu;
      } else {
        if (x < xf) { a = x; } else { b = x; }
        if (fu <= fnfc || nfc === xf) { fulc = nfc; ffulc = fnfc; nfc = x; fnfc = fu; }
        else if (fu <= ffulc || fulc === xf || fulc === nfc) { fulc = x; ffulc = fu; }
      }
      xm = 0.5 * (a + b);
      tol1 = sqrtEps * Math.abs(xf) + xatol / 3;
      tol2 = 2 * tol1;
      if (num >= 500) { break; }
    }
    return { x: xf, fun: fx };
  }

  // numpy.geomspace(low, high, count).
  function geomspace(low, high, count) {
    const a = Math.log10(low), step = (Math.log10(high) - a) / (count - 1), out = [];
    for (let i = 0; i < count; i++) { out.push(Math.pow(10, i * step + a)); }
    out[0] = low;
    out[count - 1] = high;
    return out;
  }

  // The exact chain with recovery wrapped around it (spec A).
  function tierExactAt(sc, M, T, rec) {
    return rec ? wrapExact(tierExactLosses(sc, rec.M, T), rec) : tierExactLosses(sc, M, T);
  }

  // goodput.tiers.exact_optimal_interval (with recovery: the same search on the wrapped goodput, around M').
  function tierExactOptimal(sc, M, rec) {
    const g = (t) => tierExactAt(sc, M, t, rec || null).goodput;
    const guess = tierFirstOptimal(sc, M, rec || null);
    const low = Math.max(sc.D, guess / 30);
    const high = Math.max(low * 1.0001, Math.min(guess * 30, 30 * baseM(M, rec || null)));
    const grid = geomspace(low, high, 49);
    let best = 0, top = -Infinity;
    grid.forEach((t, i) => { const v = g(t); if (v > top) { top = v; best = i; } });
    const a = Math.log(grid[Math.max(best - 1, 0)]), b = Math.log(grid[Math.min(best + 1, grid.length - 1)]);
    if (b - a < 1e-12) { return grid[best]; }
    const found = minimizeBounded((u) => -g(Math.exp(u)), a, b, 1e-10);
    if (best === 0 && sc.D > 0 && grid[0] === sc.D && -found.fun <= g(sc.D)) { return sc.D; }
    return Math.exp(found.x);
  }

  // goodput.tiers.peak: the whole n in [1, top] with the most value(n), for a value single-peaked in n, from start:
  // strides that double the way the value rises, then the bracket halved on its wider side. No rise (NaN too) stops.
  function peak(value, start, top) {
    const seen = new Map();
    const at = (n) => {  // nothing lies past the bounds
      if (!seen.has(n)) { seen.set(n, n >= 1 && n <= top ? value(n) : -Infinity); }
      return seen.get(n);
    };
    for (const step of [-1, 1]) {
      if (!(at(start + step) > at(start))) { continue; }
      let low = start, best = start + step, stride = 2, far;
      for (;;) {
        far = Math.min(Math.max(start + step * stride, 1), top);
        if (far === best) { far = best + step; }
        if (!(at(far) > at(best))) { break; }
        low = best;
        best = far;
        stride *= 2;
      }
      let high = Math.max(low, far);
      low = Math.min(low, far);
      while (high - low > 2) {
        const probe = high - best > best - low ? Math.floor((best + high) / 2) : Math.floor((low + best + 1) / 2);
        if (at(probe) > at(best)) {
          if (probe > best) { low = best; } else { high = best; }
          best = probe;
        } else if (probe > best) {
          high = probe;
        } else {
          low = probe;
        }
      }
      return best;
    }
    return start;
  }

  // goodput.tiers.best_every: the peak from the first-order cadence, each n at its own best interval by the model
  // that judges (which: "exact" or "first-order").
  const everyCache = new Map();
  function tierBestEvery(sc, M, which, rec) {
    const exact = which === undefined || which === null || which === "exact";
    const r = rec || null;
    const key = [exact ? "exact" : "first-order", sc.C, sc.R, sc.D, sc.Cp, sc.Rp, sc.s, M, r ? r.M : "", r ? r.pi : ""]
      .join(",");
    if (everyCache.has(key)) { return everyCache.get(key); }
    const value = (n) => {
      const at = Object.assign({}, sc, { n: n });
      return exact ? tierExactAt(at, M, tierExactOptimal(at, M, r), r).goodput
        : tierFirstLosses(at, M, tierFirstOptimal(at, M, r), r).goodput;
    };
    const guess = sc.s >= 1 ? Infinity : F.tiers_every(sc.C, sc.Cp, sc.s);
    const centre = Number.isFinite(guess) ? Math.max(1, Math.min(K.max_every, roundHalfEven(guess))) : K.max_every;
    const bestN = peak(value, centre, K.max_every);
    if (everyCache.size > 256) { everyCache.clear(); }
    everyCache.set(key, bestN);
    return bestN;
  }

  // goodput.plan._tier_plan for both models at once: n as given, or the best whole n by the exact model; the
  // exact plan, and first order at the same n, each at its own optimum or both at T: the fleet's verdict on first
  // order (goodput.fleet.FleetPlan.first_order_gap). First order's own plan (goodput plan's cross-check,
  // FleetPlan.first_order) chooses its own n where the inputs leave n open, and carries that verdict.
  function tierPlans(x, T) {
    const rec = recoveryOf(x);
    // a model's plan of the scheme at cadence n: at its own optimum, or at T
    const at = (n, losses, optimal) => {
      const sc = scheme(x, n), best = optimal(sc, x.M, rec);
      const plan = losses(sc, x.M, T === null ? best : T, rec);
      return Object.assign(plan, { optimal_interval_min: best, persistent_every: n, persistent_interval_min: n * plan.interval_min });
    };
    const n = x.tiers ? (x.n !== null ? x.n : tierBestEvery(scheme(x, 1), x.M, "exact", rec)) : 1;
    const exact = at(n, tierExactAt, tierExactOptimal), first = at(n, tierFirstLosses, tierFirstOptimal);
    const error = exact.goodput - first.goodput, status = rangeStatus(first.goodput, error);
    const ownN = x.tiers && x.n === null ? tierBestEvery(scheme(x, 1), x.M, "first-order", rec) : n;
    const own = ownN === n ? first : at(ownN, tierFirstLosses, tierFirstOptimal);
    return { exact: exact, first: Object.assign(own, { error: error, status: status }) };
  }

  // goodput.plan.plan_levers, by the model of `plan(x, T)` (x: the inputs; T null: the optimum). Each input
  // lever re-optimizes the interval (and n, where the plan chose it); the interval lever moves T to the optimum.
  // With a persistent tier, `cadence(x)` is goodput at the best whole n by the plan's model, each n at its best
  // interval. The levers are in plan_levers' order, which breaks ties when they are shown largest first.
  function levers(plan, x, cadence) {
    const best = plan(x, null).goodput;
    const at = (changes) => plan(Object.assign({}, x, changes), null).goodput - best;
    const [halveC, halveR, halveRate, setInterval] = K.levers;
    const [shortenDrain, survive, halveCp, halveRp, drainWrite, setCadence] = K.tier_levers;
    const out = {};
    out[halveC] = at({ C: x.C / 2, Cp: x.tiers ? x.Cp : x.C / 2 });
    // a planned stop restarts from R with one tier: what it saves (the wait for repairs) halves with R
    out[halveR] = at({ R: x.R / 2, Rp: x.tiers ? x.Rp : x.R / 2, wait: x.tiers ? x.wait : x.wait / 2 });
    out[halveRate] = at({ M: 2 * x.M });
    out[setInterval] = best - plan(x, x.T).goodput;
    if (x.D > 0) { out[shortenDrain] = at({ D: x.D / 2 }); }
    if (!x.tiers) { return out; }
    if (x.s < 1) { out[survive] = at({ s: x.s + (1 - x.s) / 2 }); }
    if (x.Cp > x.C) {
      // named as goodput.plan.persistent_lever_name names it: where half is below C, it shortens C_p to C
      // shortening C_p to C with a drain of C_p or more is draining the persistent write (goodput.plan.plan_levers)
      if (!(x.Cp / 2 < x.C) || x.D < x.Cp) {
        out[x.Cp / 2 < x.C ? K.capped_levers[halveCp] : halveCp] = at({ Cp: Math.max(x.Cp / 2, x.C) });
      }
      // the persistent snapshot blocks for C only; its write drains, durable max(D, C_p) after the snapshot
      out[drainWrite] = at({ Cp: x.C, D: Math.max(x.D, x.Cp) });
    }
    if (x.Rp > x.R) { out[x.Rp / 2 < x.R ? K.capped_levers[halveRp] : halveRp] = at({ Rp: Math.max(x.Rp / 2, x.R) }); }
    out[setCadence] = cadence(x) - best;
    return out;
  }

  // Spec B: the storage lever, where the inputs give storage: the stated write and read bandwidths doubled (C or D,
  // the load and so R re-derived, R_p moving with R); planned as every other lever, measured from the plan at its best
  // interval. Added to `out` by the model of `plan`. No snapshot lever (goodput.plan.storage_levers): C is the stall
  // measured, which a faster copy does not re-derive, or the copy alone, which doubling its bandwidth halves and
  // nothing else: "halve C", one change said once.
  function storageLevers(out, plan, x) {
    if (!x.known || !x.known.store) { return out; }
    const best = plan(x, null).goodput;
    const [doubleStorage] = K.storage_levers;
    const store = x.known.store;
    const at = (changes) => {
      const y = rederived(x, changes);
      return y === null || scaleProblem(y) !== null ? 0 - best : plan(y, null).goodput - best;
    };
    out[doubleStorage] = at({ wb: 2 * store.wb, rb: store.rb === null ? null : 2 * store.rb });
    return out;
  }

  // goodput.plan.levers_at_optimum: the levers with nothing to move, whose gain is zero by construction and which the
  // page writes as the package does (goodput.report.AT_OPTIMUM): the interval lever where the plan uses its optimal
  // interval, the cadence lever where the plan chose n (`chose`: a plan of two tiers with n not given).
  function leversAtOptimum(plan, chose) {
    const [setInterval, setCadence] = K.optimum_levers;
    const settled = [];
    if (Math.abs(plan.interval_min - plan.optimal_interval_min) <= 1e-9 * plan.optimal_interval_min) {
      settled.push(setInterval);
    }
    if (chose) { settled.push(setCadence); }
    return settled;
  }

  // The levers' names, largest gain first (goodput plan's order); equal gains keep plan_levers' order.
  function leverOrder(gains) {
    return Object.keys(gains).sort((a, b) => gains[b] - gains[a]);
  }

  // ------------------------------------------------------------------ the form

  const FIELDS = ["gpus", "rate_per_gpu_hour", "mtbi", "checkpoint_cost", "slow_checkpoint_cost", "restart", "interval", "drain",
    "persistent_cost", "persistent_restart", "fast_survives", "persistent_every", "price_per_gpu_hour", "month",
    "checkpoint_size", "parameters", "bytes_per_parameter", "gpus_per_node", "write_bandwidth", "read_bandwidth",
    "bandwidth_efficiency", "snapshot_bandwidth", "host_memory", "storage_price",
    "detect", "replace", "startup", "startup_per_node", "load", "warmup", "spares", "repair", "takes_node",
    "just_in_time", "jit_recovery", "planned_rate"];
  // The scheme's fields, folded away unless one is given.
  const TIER_FIELDS = ["drain", "persistent_cost", "persistent_restart", "fast_survives", "persistent_every"];
  // What a planner knows of the model and the storage (issue 19), folded away unless one is given.
  const STORAGE_FIELDS = ["checkpoint_size", "parameters", "bytes_per_parameter", "gpus_per_node", "write_bandwidth",
    "read_bandwidth", "bandwidth_efficiency", "snapshot_bandwidth", "host_memory", "storage_price"];
  // The restart's parts (goodput.restart.RestartParts), in the order R sums them.
  const PART_FIELDS = ["detect", "replace", "startup", "startup_per_node", "load", "warmup"];
  const SPARE_FIELDS = ["spares", "repair", "takes_node"];
  const RECOVERY_FIELDS = ["just_in_time", "jit_recovery", "planned_rate"];
  const RESTART_FIELDS = PART_FIELDS.concat(SPARE_FIELDS, RECOVERY_FIELDS);
  // The worked example's inputs (generated from the package's worked example), shown when the address gives none.
  const START = K.worked_example;

  // `template` with each {key} of `holes` filled (no replacement patterns: the words are taken as they are).
  function fill(template, holes) {
    let text = template;
    for (const key of Object.keys(holes)) { text = text.split("{" + key + "}").join(holes[key]); }
    return text;
  }

  // goodput.restart.erlang_b and spare_wait: the Erlang loss probability, and the expected wait for a repair per
  // interruption, a B(c, rho) r / (c + 1) with rho = a r / M.
  function erlangB(servers, load) {
    let b = 1;
    for (let k = 1; k <= servers; k++) { b = load * b / (k + load * b); }
    return b;
  }
  function spareWait(spares, M, repair, takesNode) {
    return takesNode * erlangB(spares, takesNode * repair / M) * repair / (spares + 1);
  }

  // goodput.storage.transfer_minutes.
  function transferMinutes(size, bandwidth, efficiency) { return size / (bandwidth * efficiency) / 60; }

  // goodput.params.derive, for the form: C, D, R and the slow C from what a planner knows, each with the package's words.
  // k: {gpus, gpn, M, size, parameters, bpp, wb, rb, eff, snap, hostMem, parts: {name: minutes} as given,
  // spares: {nodes, repair, takesNode} or null, typed: {checkpoint_cost, restart, drain} as given}.
  // Returns {values, notes, errors, size, store, parts, wait}; errors are keyed by the form's fields.
  function derivePlanner(k) {
    const errors = {}, notes = {}, values = {};
    const fail = (fields, message) => { for (const f of fields) { if (!errors[f]) { errors[f] = message; } } };
    const typed = Object.assign({}, k.typed);
    const nodeCount = () => {
      if (k.gpus === null) { fail(["gpus"], "a value: the number of GPUs, which the nodes are counted from"); return null; }
      if (k.gpus % k.gpn !== 0) {
        fail(["gpus_per_node"], fill(MESSAGES.gpus_per_node, { gpus: k.gpus.toLocaleString("en-US") }));
        return null;
      }
      return k.gpus / k.gpn;
    };
    const choose = (key, value, source, words) => {
      if (Object.prototype.hasOwnProperty.call(typed, key)) {  // both typed in the form: refused, as both in one file
        fail([key, source], fill(MESSAGES.derived_and_typed, { source: source, key: key, words: words }));
        delete typed[key];
        return;
      }
      values[key] = value;
      notes[key] = words;
    };
    let size = k.size, sizeWords = "";
    if (k.parameters !== null) {
      if (k.size !== null) { fail(["checkpoint_size", "parameters"], MESSAGES.size_and_parameters); }
      const bpp = k.bpp === null ? K.default_bytes_per_parameter : k.bpp;
      size = k.parameters * bpp;
      // goodput.storage.checkpoint_size: parameters × bytes that overflow have no size
      if (!Number.isFinite(size)) {
        fail(["parameters"], MESSAGES.parameters_size);
        return { values: {}, notes: notes, errors: errors, size: null, store: null, parts: null, wait: 0 };
      }
      const count = k.parameters >= 1e9 ? formatG(k.parameters / 1e9, 4) + " billion"
        : roundHalfEven(k.parameters).toLocaleString("en-US");
      sizeWords = formatSize(size) + " (" + count + " parameters × " + formatG(bpp, 6) + " bytes)";
      notes.checkpoint_size = count + " parameters × " + formatG(bpp, 6) + " bytes";
    } else if (k.bpp !== null) {
      fail(["bytes_per_parameter"], MESSAGES.bytes_needs_parameters);
    } else {
      sizeWords = size !== null ? formatSize(size) : "";
    }
    let store = null;
    if (k.wb !== null) {
      if (size === null) {
        fail(["write_bandwidth"], MESSAGES.storage_needs_size);
      } else {
        const nodes = nodeCount();
        if (nodes !== null) {
          store = { size: size, nodes: nodes, wb: k.wb, rb: k.rb, eff: k.eff === null ? 1 : k.eff, snap: k.snap,
            hostMem: k.hostMem, hostNeeded: size / nodes * 1 };
          if (store.snap !== null && store.hostMem !== null && store.hostNeeded > store.hostMem) {
            fail(["host_memory"], fill(MESSAGES.host_memory, { needed: formatSize(store.hostNeeded) }));
          }
        }
      }
    } else {
      for (const [key, field] of [["rb", "read_bandwidth"], ["eff", "bandwidth_efficiency"], ["snap", "snapshot_bandwidth"],
        ["hostMem", "host_memory"]]) {
        if (k[key] !== null) { fail([field], MESSAGES.storage_needs_write); }
      }
    }
    if (store !== null) {
      const e = store.eff;
      store.writeMinutes = transferMinutes(size, store.wb, e);
      const achieved = formatBandwidth(store.wb * e) + (e < 1 ? " achieved (" + percent0(e) + " of " +
        formatBandwidth(store.wb) + ")" : "");
      const writeWords = sizeWords + " at " + achieved;
      if (store.snap === null) {
        choose("checkpoint_cost", store.writeMinutes, "write_bandwidth", "a synchronous write of " + writeWords);
      } else {
        const copy = transferMinutes(size / store.nodes, store.snap, 1);
        const copyWords = "a snapshot of " + formatSize(size / store.nodes) + " per node to host memory at " +
          formatBandwidth(store.snap);
        store.copy = copy;
        if (Object.prototype.hasOwnProperty.call(typed, "checkpoint_cost")) {
          // C typed beside the snapshot (one level in the form, as in one file): the stall measured at a checkpoint,
          // barrier and quiesce with the copy, so never shorter than the copy alone (goodput.params.derive)
          store.stall = true;
          notes.snapshot_copy = copyWords;
          if (typed.checkpoint_cost < copy) {
            fail(["checkpoint_cost"], fill(MESSAGES.stall_below_copy, { copy: formatDuration(copy),
              size: formatSize(size / store.nodes), bandwidth: formatBandwidth(store.snap) }));
          }
        } else {
          choose("checkpoint_cost", copy, "snapshot_bandwidth", copyWords);
        }
        choose("drain", store.writeMinutes, "write_bandwidth", "the write of " + writeWords + " after the snapshot");
      }
      // the synchronous write compared with, unless typed (goodput.params.derive keeps a typed slow C)
      if (!Object.prototype.hasOwnProperty.call(typed, "slow_checkpoint_cost")) {
        values.slow_checkpoint_cost = store.writeMinutes;
        notes.slow_checkpoint_cost = "a synchronous write of " + writeWords;
        if (store.stall) {  // goodput.params.derive: the write pays the stall's barrier and quiesce beyond its copy
          const extra = Math.max(0, typed.checkpoint_cost - store.copy);
          values.slow_checkpoint_cost += extra;
          notes.slow_checkpoint_cost += ", with the " + formatDuration(extra) + " of barrier and quiesce that the " +
            "measured stall holds beyond its copy";
        }
      }
    }
    const parts = Object.assign({}, k.parts);
    const partsGiven = Object.keys(parts);
    if (partsGiven.length && Object.prototype.hasOwnProperty.call(typed, "restart")) {
      fail(["restart", partsGiven[0]], MESSAGES.restart_and_parts);
      delete typed.restart;
    }
    if (store !== null && store.rb !== null && !Object.prototype.hasOwnProperty.call(parts, "load")) {
      if (Object.prototype.hasOwnProperty.call(typed, "restart") && !partsGiven.length) {
        fail(["restart", "read_bandwidth"], MESSAGES.restart_and_read);
      } else {
        const e = store.eff;
        parts.load = transferMinutes(size, store.rb, e);
        notes.load = "a read of " + sizeWords + " at " + formatBandwidth(store.rb * e) + (e < 1 ? " achieved (" +
          percent0(e) + " of " + formatBandwidth(store.rb) + ")" : "");
      }
    }
    let restartParts = null, startup = null;
    if (Object.keys(parts).length) {
      const perNode = parts.startup_per_node || 0;
      let nodes = 1;
      if (perNode) { nodes = nodeCount(); } else if (k.gpus !== null && k.gpus % k.gpn === 0) { nodes = k.gpus / k.gpn; }
      if (nodes !== null) {
        const p = { detect: parts.detect || 0, replace: parts.replace || 0, startup: (parts.startup || 0) + perNode * nodes,
          load: parts.load || 0, warmup: parts.warmup || 0 };
        let total = 0;
        for (const name of K.restart_parts) { total += p[name]; }
        if (!(total > 0)) {
          fail([partsGiven[0] || "restart"], MESSAGES.restart_parts_total);
        } else {
          restartParts = p;
          if (perNode) { startup = { fixed: parts.startup || 0, perNode: perNode, nodes: nodes }; }
          values.restart = total;
          const shown = { startup: "start-up", warmup: "warm-up" };
          notes.restart = "the sum of its parts: " + K.restart_parts.filter((name) => p[name] > 0)
            .map((name) => (shown[name] || name) + " " + formatDuration(p[name])).join(" + ");
        }
      }
    }
    let wait = null;
    if (k.spares !== null) {
      const base = Object.prototype.hasOwnProperty.call(values, "restart") ? values.restart : typed.restart;
      if (base !== undefined) {
        const sp = k.spares;
        wait = spareWait(sp.nodes, k.M, sp.repair, sp.takesNode);
        values.restart = base + wait;
        notes.restart = (notes.restart || formatDuration(base) + " given") + ", and " +
          formatWait(wait) + " waiting for repairs (" + sp.nodes.toLocaleString("en-US") +
          " spare nodes, repairs of " + formatDuration(sp.repair) + ", " + percent0(sp.takesNode) +
          " of interruptions take a node)";
      }
    }
    const final = Object.assign({}, typed, values);
    return { values: final, notes: notes, errors: errors, size: size, store: store, parts: restartParts, wait: wait,
      startup: startup };
  }

  // The inputs x with the planner's knowns changed (`changes` over x.known: wb, rb, snap ...) and C, D, R re-derived;
  // a persistent tier's R_p moved by as much as R (goodput.plan.derived_again). null when the changed inputs are refused.
  function rederived(x, changes) {
    const k = Object.assign({}, x.known, changes);
    const d = derivePlanner(k);
    if (Object.keys(d.errors).length) { return null; }
    // R_p moves as R moves (goodput.plan.derived_again, as goodput plan moves a typed R_p with R's parts)
    return Object.assign(withRestart(x, d.values.restart), { C: d.values.checkpoint_cost,
      D: d.values.drain === undefined ? 0 : d.values.drain, known: Object.assign(k, { store: d.store }) });
  }

  // Check the typed values as goodput.params and goodput.tiers do. Returns {inputs} or {errors}.
  function readInputs(raw) {
    const errors = {}, x = {};
    const given = (key) => raw[key] !== undefined && pythonStrip(raw[key]) !== "";
    const read = (key, reader) => {
      if (!given(key)) { return null; }
      try { return reader(raw[key]); } catch (error) {
        if (!(error instanceof InputError)) { throw error; }
        errors[key] = error.expected;
        return null;
      }
    };
    const duration = (value) => parseDuration(value);
    const durationOrZero = (value) => parseDuration(value, { allowZero: true });
    x.gpus = read("gpus", (v) => whole(v, 1, K.most_gpus));
    x.rate = read("rate_per_gpu_hour", positive);
    x.mtbi = read("mtbi", duration);
    if (given("rate_per_gpu_hour") && given("mtbi")) {
      errors.mtbi = errors.rate_per_gpu_hour = "exactly one of a per-GPU rate (with GPUs) or M, not both";
    } else if (!given("rate_per_gpu_hour") && !given("mtbi")) {
      errors.mtbi = "a value: M, or a per-GPU rate with GPUs";
    } else if (given("rate_per_gpu_hour") && !given("gpus")) {
      errors.gpus = "a value: the number of GPUs, which the per-GPU rate is multiplied by";
    }
    const typedC = read("checkpoint_cost", duration);
    const typedSlow = read("slow_checkpoint_cost", duration);
    const typedR = read("restart", duration);
    x.T = read("interval", duration);
    x.price = read("price_per_gpu_hour", (v) => price(v, K.most_price, MESSAGES.price, false));
    x.month = read("month", (v) => {  // goodput.params.parse_month: an accounting month of at most a year
      const month = duration(v);
      if (month > K.most_month) { throw new InputError(MESSAGES.month); }
      return month;
    });
    x.priceDefault = !given("price_per_gpu_hour");
    x.monthDefault = !given("month");
    if (x.priceDefault) { x.price = Number(K.file_defaults.price_per_gpu_hour); }
    if (x.monthDefault) { x.month = parseDuration(K.file_defaults.month); }
    x.monthText = x.monthDefault ? K.file_defaults.month : pythonStrip(raw.month).replace(/\s+/g, " ");
    const typedD = read("drain", durationOrZero);
    x.Cp = read("persistent_cost", duration);
    x.Rp = read("persistent_restart", duration);
    x.s = read("fast_survives", share);
    x.n = read("persistent_every", (v) => whole(v, 1));
    x.tiers = given("persistent_cost");
    if (!x.tiers) {
      for (const key of ["persistent_restart", "fast_survives", "persistent_every"]) {
        if (given(key)) { errors[key] = "a persistent checkpoint cost as well: this only applies with two tiers"; }
      }
    } else if (!given("fast_survives")) {
      errors.fast_survives = "a value with a persistent tier: the share of interruptions the fast tier survives, 0 to 1";
    }
    if (x.tiers && x.n !== null && x.n > K.max_every) {
      errors.persistent_every = "a whole number from 1 to " + K.max_every.toLocaleString("en-US");
    }
    // what a planner knows: the model and the storage
    const k = { gpus: x.gpus, typed: {}, parts: {}, spares: null };
    k.size = read("checkpoint_size", parseSize);
    k.parameters = read("parameters", positive);
    k.bpp = read("bytes_per_parameter", positive);
    k.gpn = read("gpus_per_node", (v) => whole(v, 1, K.most_gpus));
    if (k.gpn === null) { k.gpn = K.default_gpus_per_node; }
    k.wb = read("write_bandwidth", parseBandwidth);
    k.rb = read("read_bandwidth", parseBandwidth);
    k.eff = read("bandwidth_efficiency", (v) => shareOf(v, { openLow: true, expected: MESSAGES.efficiency }));
    k.snap = read("snapshot_bandwidth", parseBandwidth);
    k.hostMem = read("host_memory", parseSize);
    x.storagePrice = read("storage_price", (v) => price(v, K.most_storage_price, K.price_expected, true));
    // the restart's parts, spares, recovery without rollback and planned stops
    for (const key of PART_FIELDS) {
      const v = read(key, durationOrZero);
      if (v !== null) { k.parts[key] = v; }
    }
    const spareNodes = read("spares", (v) => whole(v, 0, K.most_held_spares));
    const repair = read("repair", duration);
    const takesNode = read("takes_node", share);
    if (SPARE_FIELDS.some(given)) {
      for (const key of SPARE_FIELDS) {
        if (!given(key)) {
          errors[key] = "a value with spares: the spare nodes, the mean time to repair a node and the share of " +
            "interruptions that take a node out";
        }
      }
      if (!given("gpus")) { errors.gpus = "a value: the number of GPUs, which the spares are counted against"; }
      if (spareNodes !== null && repair !== null && takesNode !== null) {
        k.spares = { nodes: spareNodes, repair: repair, takesNode: takesNode };
      }
    }
    x.p = read("just_in_time", (v) => shareOf(v, { openHigh: true, expected: MESSAGES.just_in_time }));
    x.Rj = read("jit_recovery", duration);
    x.q = read("planned_rate", parseRate);
    if (given("jit_recovery") && !given("just_in_time")) {
      errors.jit_recovery = "a share recovered just in time as well: the recovery's cost only matters with one";
    }
    if (x.p === null) { x.p = 0; }
    if (x.Rj === null) { x.Rj = K.default_jit_recovery; }
    if (x.q === null) { x.q = 0; }
    if (Object.keys(errors).length) { return { errors: errors }; }
    x.M = x.mtbi !== null ? x.mtbi : F.mtbi_from_rate(x.rate, x.gpus);
    if (x.mtbi === null && !(x.M > 0 && x.M <= K.longest_duration)) {  // goodput.params.mtbi_of_rate
      return { errors: { rate_per_gpu_hour: MESSAGES.rate_overflow.replace("{gpus}", x.gpus.toLocaleString("en-US")) } };
    }
    if (!(x.M > 0) || !Number.isFinite(x.M)) { return { errors: { mtbi: "a finite mean time between interruptions" } }; }
    // C, D and R as typed, or derived (goodput.params.derive)
    k.M = x.M;
    if (typedC !== null) { k.typed.checkpoint_cost = typedC; }
    if (typedSlow !== null) { k.typed.slow_checkpoint_cost = typedSlow; }
    if (typedR !== null) { k.typed.restart = typedR; }
    if (typedD !== null) { k.typed.drain = typedD; }
    const planner = STORAGE_FIELDS.some((key) => key !== "storage_price" && given(key));
    const typedParts = Object.keys(k.parts).length > 0;
    const d = derivePlanner(k);
    Object.assign(errors, d.errors);
    if (d.values.checkpoint_cost === undefined && !errors.checkpoint_cost && !errors.parameters) {
      errors.checkpoint_cost = planner ? MESSAGES.missing_duration : "a value: " + MESSAGES.duration;
    }
    if (typedR === null && !typedParts && !errors.restart) {  // a parameters file needs restart:, whole or in parts
      errors.restart = "a value: " + MESSAGES.duration + (planner ? ", or the restart's parts" : "");
    }
    if (Object.keys(errors).length) { return { errors: errors }; }
    x.C = d.values.checkpoint_cost;
    x.R = d.values.restart;
    x.D = d.values.drain === undefined ? 0 : d.values.drain;
    // the slow checkpoint as typed, else derived from the storage, else the C typed (the form's default)
    x.slowDerived = d.values.slow_checkpoint_cost !== undefined;
    x.slowC = x.slowDerived ? d.values.slow_checkpoint_cost : typedSlow !== null ? typedSlow : x.C;
    if (typedSlow !== null && typedSlow < x.C) {  // goodput.params.params_from_mapping, in its words
      return { errors: { slow_checkpoint_cost: fill(MESSAGES.slow_below_c, { cost: formatDuration(x.C) }) } };
    }
    // derived: the snapshot is slower than writing to storage directly (goodput.params); a measured stall may be
    if (x.slowC < x.C && !(d.store && d.store.stall)) {
      return { errors: { snapshot_bandwidth: fill(MESSAGES.snapshot_slower, { slow: formatDuration(x.slowC) }) } };
    }
    x.known = Object.assign(k, { store: d.store });
    x.derived = d;
    x.spares = k.spares;
    x.wait = d.wait;
    if (x.tiers) {
      if (x.Cp < x.C) {
        errors.persistent_cost = "a persistent checkpoint no cheaper than the fast one (" + formatDuration(x.C) + ")";
      }
      // goodput.params.tier_inputs: a restart from the persistent tier waits for a repaired node as R does, so a typed
      // R_p is checked against R before its wait and planned with it
      const wait = x.wait > 0 ? x.wait : 0, parts = x.R - wait;
      if (x.Rp !== null && x.Rp < parts - 1e-9 * parts) {
        errors.persistent_restart = "a persistent restart no shorter than the fast restart (" + formatDuration(parts) +
          (wait > 0 ? " before the wait for repairs" : "") + ")";
      }
      if (Object.keys(errors).length) { return { errors: errors }; }
      x.Rp = x.Rp === null ? x.R : Math.max(x.Rp + wait, x.R);
    }
    return { inputs: x };
  }

  // The exact plan of inputs x at their optimum (and best n where the page chooses it): goodput.plan.plan_for's.
  // 0 where the inputs keep essentially no work (goodput.plan refuses them; the package's searches count them as 0).
  function planGoodput(x) {
    if (scaleProblem(x) !== null) { return 0; }
    const plan = x.tiers || x.D > 0 ? tierPlans(x, null).exact : exactPlan(x, null);
    return Number.isFinite(plan.goodput) ? plan.goodput : 0;
  }

  // goodput.fleet.FleetPlan.with_restart: the inputs x with an expected restart of r minutes; a persistent tier's
  // restart moves by as much, never below r (R_p defaulting to R would otherwise round a hair below it).
  // `wait`: the part of r spent waiting for a repaired node (a planned stop does not take it); undefined keeps x's.
  function withRestart(x, r, wait) {
    return Object.assign({}, x, { R: r, Rp: x.tiers ? Math.max(x.Rp + (r - x.R), r) : x.Rp,
                                  wait: wait === undefined ? x.wait : wait });
  }

  // goodput.fleet.FleetPlan.spares_choice with goodput.restart.best_spares: each count's expected restart, R_parts +
  // a B(c, rho) r / (c + 1), planned with the whole scheme (withRestart); the best count maximizes the kept work net
  // of the spares' own GPUs, goodput x N - c g (SparesChoice.net), the first of equals. The counts run from 0 while
  // c <= top (8, doubled while the wait is over a second, up to most_spares), or c <= best + max(2, best // 4), or a
  // larger pool could still win (ceiling x N - c g above the best's net, the ceiling being goodput with no wait).
  // dollars: each count's kept work against no spares, net of the spares' own GPUs, a month at the page's price.
  function bestSpares(x) {
    const sp = x.spares;
    if (!sp || x.gpus === null) { return null; }
    const parts = x.R - x.wait, n = x.gpus, g = x.known.gpn, most = K.most_spares;
    let top = 8;
    while (spareWait(top, x.M, sp.repair, sp.takesNode) > 1 / 60 && top < most) { top = Math.min(2 * top, most); }
    const goodputAt = (r) => planGoodput(withRestart(x, r, r - parts));
    const ceiling = goodputAt(parts);
    const counts = [], restart = [], goodput = [], useful = [], net = [];
    let c = 0, lead = 0;
    while (c <= most && (c <= top || c <= lead + Math.max(2, Math.floor(lead / 4)) || ceiling * n - c * g > net[lead])) {
      counts.push(c);
      restart.push(parts + spareWait(c, x.M, sp.repair, sp.takesNode));
      goodput.push(goodputAt(restart[c]));
      useful.push(goodput[c] * n / (n + c * g));
      net.push(goodput[c] * n - c * g);
      if (net[c] > net[lead]) { lead = c; }
      c += 1;
    }
    const month = (points) => F.capacity_per_month(points, n, x.price, x.month);
    const dollars = counts.map((k, i) => month(goodput[i] - goodput[0]) - month(k * (g / n)));
    return { counts: counts, restart: restart, goodput: goodput, useful: useful, net: net, best: lead, dollars: dollars };
  }

  // goodput.storage.best_bandwidth: the bandwidth that maximizes net(b) from b0 / span to span x b0: a log grid of
  // per_octave points per factor of two, then golden section on log b between the grid points either side of the
  // best (the lowest of equals) to a relative tolerance. An end of the grid is returned and named ("top", "bottom").
  function bestBandwidth(net, b0) {
    const S = K.bandwidth_search, span = S.span;
    const steps = Math.max(2, roundHalfEven(2 * Math.log2(span) * S.per_octave));
    const lo = Math.log(b0 / span), hi = Math.log(b0 * span);
    const grid = [], values = [];
    for (let k = 0; k <= steps; k++) { grid.push(lo + (hi - lo) * k / steps); values.push(net(Math.exp(grid[k]))); }
    let k = 0;
    for (let i = 1; i < grid.length; i++) { if (values[i] > values[k]) { k = i; } }
    if (k === grid.length - 1) { return { bandwidth: Math.exp(grid[k]), edge: "top" }; }
    if (k === 0) { return { bandwidth: Math.exp(grid[0]), edge: "bottom" }; }
    let a = grid[k - 1], c = grid[k + 1];
    const ratio = (Math.sqrt(5) - 1) / 2;
    let x1 = c - ratio * (c - a), x2 = a + ratio * (c - a), f1 = net(Math.exp(x1)), f2 = net(Math.exp(x2));
    while (c - a > S.tolerance) {
      if (f1 >= f2) { c = x2; x2 = x1; f2 = f1; x1 = c - ratio * (c - a); f1 = net(Math.exp(x1)); }
      else { a = x1; x1 = x2; f1 = f2; x2 = a + ratio * (c - a); f2 = net(Math.exp(x2)); }
    }
    // Python's max of (value, log b) pairs: the largest value, then the largest log b
    let best = [values[k], grid[k]];
    for (const pair of [[f1, x1], [f2, x2]]) {
      if (pair[0] > best[0] || (pair[0] === best[0] && pair[1] > best[1])) { best = pair; }
    }
    return { bandwidth: Math.exp(best[1]), edge: null };
  }

  // Spec C, goodput.fleet.FleetPlan.best_write_bandwidth: the stated write bandwidth that maximizes the capacity goodput
  // keeps, net of the storage's price (dollars per GB/s a month); the read bandwidth scales in the same ratio
  // (goodput.params.at_bandwidths). With a price of zero, the top of the search. null without a price, storage or GPUs.
  function bestWriteBandwidth(x) {
    const store = x.known && x.known.store;
    if (x.storagePrice === null || !store || x.gpus === null) { return null; }
    const goodputAt = (b) => {
      const ratio = b / store.wb;
      const y = rederived(x, { wb: store.wb * ratio, rb: store.rb === null ? null : store.rb * ratio });
      return y === null ? 0 : planGoodput(y);
    };
    const dollars = (g) => F.capacity_per_month(g, x.gpus, x.price, x.month);
    const found = x.storagePrice === 0 ? { bandwidth: store.wb * K.bandwidth_search.span, edge: "top" }
      : bestBandwidth((b) => dollars(goodputAt(b)) - x.storagePrice * b / 1e9, store.wb);
    const goodput = goodputAt(found.bandwidth);
    const cost = x.storagePrice * found.bandwidth / 1e9;
    // goodput.storage.BestBandwidth.flat: the fleet's own bandwidth nets as much, as far as its inputs tell
    const own = dollars(goodputAt(store.wb)) - x.storagePrice * store.wb / 1e9, net = dollars(goodput) - cost;
    return { bandwidth_bytes_per_s: found.bandwidth, goodput: goodput, storage_cost_per_month: cost,
      net_per_month: net, edge: found.edge, own_net_per_month: own,
      flat: found.edge === null && net - own <= K.bandwidth_search.flat_share * Math.abs(own) };
  }

  // goodput.plan._check_scale: inputs so far out of scale that the job keeps essentially no work have no plan.
  function scaleProblem(x) {
    const longest = Math.max(x.C, x.R, x.T || 0, x.D, x.Cp || 0, x.Rp || 0);
    if (!(longest / x.M > K.max_ratio)) { return null; }
    return "interruptions come every " + formatDuration(x.M) + ", against a checkpoint, interval or restart of " +
      formatDuration(longest) + ": the job would keep essentially no work, so there is no plan to make";
  }

  // The plan for checked inputs: {kind, inputs, exact, first}, or {errors} when the interval is shorter than the
  // drain, or {refused} when goodput.plan refuses the inputs or its model gives no number.
  function compute(x) {
    const kind = x.tiers ? "tiers" : (x.D > 0 ? "drain" : "single");
    if (x.T !== null && x.T < x.D) {  // goodput.plan: one drain in flight at a time
      return { errors: { interval: MESSAGES.interval_drain.replace("{drain}", formatDuration(x.D)) } };
    }
    const problem = scaleProblem(x);
    if (problem !== null) { return { refused: problem }; }
    let exact, first;
    if (kind === "tiers") {
      const plans = tierPlans(x, x.T);
      exact = plans.exact;
      first = plans.first;
      exact.levers = storageLevers(levers((y, t) => tierPlans(y, t).exact, x,
        (y) => tierPlans(Object.assign({}, y, { n: null }), null).exact.goodput), (y, t) => tierPlans(y, t).exact, x);
      // first order's levers as goodput plan --model first-order's: n re-chosen by first order where the inputs leave it
      const firstAt = (y, t) => tierPlans(y, t).first;
      first.levers = storageLevers(levers(firstAt, x, (y) => {
        const rec = recoveryOf(y);
        const sc = scheme(y, tierBestEvery(scheme(y, 1), y.M, "first-order", rec));
        return tierFirstLosses(sc, y.M, tierFirstOptimal(sc, y.M, rec), rec).goodput;
      }), firstAt, x);
    } else {
      exact = exactPlan(x, x.T);
      first = firstOrderPlan(x, x.T);
      exact.levers = storageLevers(levers(exactPlan, x), exactPlan, x);
      first.levers = storageLevers(levers(firstOrderPlan, x), firstOrderPlan, x);
    }
    exact.mtbi_min = first.mtbi_min = x.M;
    const numbers = [exact.goodput, exact.optimal_interval_min, exact.interval_min].concat(Object.values(exact.levers));
    if (!numbers.every(Number.isFinite) || !(exact.goodput >= 0 && exact.goodput <= 1)) {
      return { refused: "the exact model gives no number for these inputs (goodput plan stops here as well)" };
    }
    exact.at_optimum = leversAtOptimum(exact, kind === "tiers" && x.n === null);
    first.at_optimum = leversAtOptimum(first, kind === "tiers" && x.n === null);
    for (const plan of [exact, first]) {
      plan.lost_capacity = x.gpus === null ? null : F.capacity_per_month(1 - plan.goodput, x.gpus, x.price, x.month);
      plan.lever_dollars = {};
      for (const name of Object.keys(plan.levers)) {
        plan.lever_dollars[name] = x.gpus === null ? null : F.capacity_per_month(plan.levers[name], x.gpus, x.price, x.month);
      }
    }
    return { kind: kind, inputs: x, first: first, exact: exact, spares: bestSpares(x), bandwidth: bestWriteBandwidth(x),
      synchronous: synchronousKeepsMore(x, exact) };
  }

  // goodput.plan.scheme_pays (the slow checkpoint of goodput.plan.plan_for(slow=True): its C written synchronously, one
  // tier, no drain, restarting in R_p beside a persistent tier, the fleet's recovery and planned stops), at its own
  // optimum: that plan where it keeps more than the
  // fleet's (the scheme does not pay, as a stall measured beside a snapshot longer than the write), else null.
  // The scheme at its optimum (goodput.report.at_optimum): an interval typed off it is not the scheme's fault.
  function synchronousKeepsMore(x, plan) {
    const slow = exactPlan(Object.assign({}, x, { C: x.slowC, D: 0, tiers: false, R: x.tiers ? x.Rp : x.R }), null);
    const best = x.T === null ? plan : x.tiers ? tierPlans(x, null).exact : exactPlan(x, null);
    if (!(slow.goodput > best.goodput)) { return null; }
    slow.against = best.goodput;
    return slow;
  }

  // goodput.report.not_paying_text, its words filled (the gain as gain_text writes it, without the "+").
  function notPaying(result) {
    const slow = result.synchronous;
    if (slow === null) { return ""; }
    return fill(K.not_paying[result.inputs.slowDerived ? "derived" : "stated"], {
      cost: formatDuration(result.inputs.slowC), goodput: percent(slow.goodput),
      every: formatDuration(slow.optimal_interval_min), gain: gain(slow.goodput - slow.against).replace(/^\+/, ""),
    });
  }

  // ------------------------------------------------------------------ the page

  const DURATION_OUTPUTS = new Set(["mtbi_min", "optimal_interval_min", "interval_min", "persistent_interval_min"]);
  // the losses, written as goodput.report.percent_sig2 writes them (the command's and the book's loss rows)
  const LOSS_OUTPUTS = new Set(["checkpoint_overhead", "lost_work", "restart_loss", "drain_loss"]);

  // A value in a table cell: its text in pieces that each keep to one line (goodput-book.css, .gc-nb), the cell
  // breaking only between them (after a comma or a semicolon, before a parenthesis), so that a long value ("$62M a
  // month against none, net of the spares' own GPUs") wraps without splitting a number from its unit and without
  // squeezing the label column. The cell's text is the value's, unchanged.
  function show(element, value, text) {
    element.textContent = "";
    text.split(/(?<=[,;]) | (?=\()/).forEach((piece, i) => {
      if (i) { element.appendChild(document.createTextNode(" ")); }
      const nowrap = document.createElement("span");
      nowrap.className = "gc-nb";
      nowrap.textContent = piece;
      element.appendChild(nowrap);
    });
    element.setAttribute("data-value", String(value));
  }

  function blank(element, text) {
    element.textContent = text || "—";
    element.removeAttribute("data-value");
  }

  // goodput.report.money: "$3.8M", "$420K", "$950".
  // goodput.report.money
  function money(dollars) {
    if (dollars < 0) { return "-" + money(-dollars); }
    if (dollars > 0 && dollars < 0.5) { return "under $1"; }
    if (dollars >= 9.95e8) { return "$" + fixed(dollars / 1e9, dollars < 9.95e9 ? 1 : 0) + "B"; }
    if (dollars >= 9.95e5) { return "$" + fixed(dollars / 1e6, dollars < 9.95e6 ? 1 : 0) + "M"; }
    if (dollars >= 1e3) { return "$" + significant(dollars / 1e3, 2) + "K"; }
    return "$" + Math.floor(dollars + 0.5).toFixed(0);  // half up, as goodput.report.money rounds
  }

  // goodput.report.restart_part_texts and restart_sum: R as the sum of its parts, the one way the book and goodput plan
  // write it (parts written to add up to R as written, the start-up per node multiplied out, the wait for repairs);
  // null where R is typed whole without spares. x: the checked inputs.
  function restartSum(x) {
    const d = x.derived, parts = d.parts, names = K.restart_part_names;
    if (!parts && !x.spares) { return null; }
    const wait = x.spares && x.wait !== null ? x.wait : 0;
    const keys = [], minutes = [];
    if (parts) {
      for (const name of K.restart_parts) { if (parts[name] > 0) { keys.push(name); minutes.push(parts[name]); } }
    } else { keys.push("given"); minutes.push(x.R - wait); }
    if (x.spares) { keys.push("wait"); minutes.push(wait); }
    const texts = addingUp(x.R, minutes);
    const items = keys.map((key, i) => {
      const text = key === "wait" && minutes[i] < K.wait_floor ? formatWait(minutes[i], "0 s") : texts[i];
      return key === "given" ? text + " given" : names[key] + " " + text;
    });
    const i = keys.indexOf("startup");
    if (i >= 0 && d.startup) {
      items[i] += " (" + (d.startup.fixed > 0 ? formatDuration(d.startup.fixed) + " + " : "") +
        d.startup.nodes.toLocaleString("en-US") + " nodes × " + formatDuration(d.startup.perNode) + ")";
    }
    return items.join(" + ") || null;
  }

  // result: the plan, or null; refusal: why there is none (a sentence), when the inputs were read but not planned.
  // What the page derived from the planner's inputs, and what to hold or buy: {key: {value, text}} for the rows of
  // the derived table, and the list of derivations, each with its formula and the package's words.
  function derivedOutputs(result) {
    const x = result.inputs, d = x.derived, out = {}, items = [];
    const put = (key, value, text) => { if (value !== null && value !== undefined && Number.isFinite(value)) { out[key] = { value: value, text: text }; } };
    const item = (formula, value, words) => { items.push(formula + " = " + value + (words ? ": " + words : "")); };
    if (d.size !== null && d.size !== undefined) {
      put("checkpoint_size_bytes", d.size, formatSize(d.size));
      if (d.notes.checkpoint_size) { item("S = parameters × bytes per parameter", formatSize(d.size), d.notes.checkpoint_size); }
    }
    const store = d.store;
    if (d.notes.checkpoint_cost) {
      put("checkpoint_cost_min", x.C, formatDuration(x.C));
      item(store.snap === null ? "C = S ÷ (write bandwidth × share achieved)" : "C = (S ÷ nodes) ÷ snapshot bandwidth per node",
        formatDuration(x.C), d.notes.checkpoint_cost);
    }
    if (d.notes.snapshot_copy) {  // beside a measured stall (C typed), the copy alone
      item("copy = (S ÷ nodes) ÷ snapshot bandwidth per node", formatDuration(store.copy), d.notes.snapshot_copy);
    }
    if (d.notes.drain) {
      put("drain_min", x.D, formatDuration(x.D));
      item("D = S ÷ (write bandwidth × share achieved)", formatDuration(x.D), d.notes.drain);
    }
    if (d.notes.load) {
      put("load_min", d.parts.load, formatDuration(d.parts.load));
      item("load = S ÷ (read bandwidth × share achieved)", formatDuration(d.parts.load), d.notes.load);
    }
    if (d.notes.restart) {
      put("restart_min", x.R, formatDuration(x.R));
      // R's value beside R, ρ's own beside ρ; the parts as goodput plan and the book write R (goodput.report.restart_sum:
      // "start-up 12.24 min", the parts adding up to R as written), with the spares as the package's note gives them
      const sp = x.spares;
      const rho = sp ? sp.takesNode * sp.repair / x.M : null;
      items.push("R = " + (d.parts ? "detect + replace + start-up (fixed + per node × nodes) + load + warm-up" : "R typed") +
        (sp ? " + a·B(c, ρ)·r/(c + 1)" : "") + " = " + formatDuration(x.R) +
        (sp ? ", with ρ = a·r/M = " + formatG(rho, 3) : "") + ": " + (d.parts ? "the sum of its parts, " : "") +
        restartSum(x) + (sp ? " (" + sp.nodes.toLocaleString("en-US") + " spare nodes, repairs of " +
          formatDuration(sp.repair) + ", " + percent0(sp.takesNode) + " of interruptions take a node)" : ""));
    }
    if (store && store.snap !== null) {
      put("host_memory_needed_bytes", store.hostNeeded, formatSize(store.hostNeeded) + " per node" +
        (store.hostMem === null ? "" : " (of " + formatSize(store.hostMem) + ")"));
    }
    if (x.wait !== null && x.wait !== undefined) { put("spare_wait_min", x.wait, x.wait > 0 ? formatDuration(x.wait) : "none"); }
    const sp = result.spares;
    if (sp) {
      put("best_spares", sp.best, sp.best.toLocaleString("en-US") + " spare node" + (sp.best === 1 ? "" : "s") +
        " (you hold " + x.spares.nodes.toLocaleString("en-US") + ")");
      put("best_spares_goodput", sp.goodput[sp.best], percent(sp.goodput[sp.best]));
      put("best_spares_useful", sp.useful[sp.best], percent(sp.useful[sp.best]));
      put("best_spares_dollars", sp.dollars[sp.best], (sp.dollars[sp.best] < 0 ? "a loss of " + money(-sp.dollars[sp.best])
        : money(sp.dollars[sp.best])) + " a month against none, net of the spares' own GPUs");
    }
    const rec = recoveryOf(x);
    if (rec) {
      put("recovery_pauses", rec.pi, formatG(rec.pi, 3) + " a minute (M′ = " + formatDuration(rec.M) + ")");
      item("π = p·R_j/M + q·S_q, the scheme taken at M′ = M/(1 − p)", formatG(rec.pi, 3) + " a minute of running",
        "S_q = " + formatDuration(rec.stop) + " a planned stop");
    }
    const bw = result.bandwidth;
    if (bw) {
      // goodput.report.best_bandwidth_text: an end of the search is said as a bound
      const bound = bw.edge === "top" ? "at least " : bw.edge === "bottom" ? "at most " : "";
      const span = K.bandwidth_search.span;
      put("best_write_bandwidth", bw.bandwidth_bytes_per_s, bound + formatBandwidth(bw.bandwidth_bytes_per_s) + " (you have " +
        formatBandwidth(store.wb) + (bw.edge === "top" ? "; no optimum below " + span + "x it, the top of the search"
          : bw.edge === "bottom" ? "; no optimum above 1/" + span + " of it, the bottom of the search"
          : bw.flat ? "; " + money(bw.net_per_month - bw.own_net_per_month) + " a month more than at yours, finer than " +
            "the inputs tell apart: none to buy or shed" : "") + ")");
      put("best_write_bandwidth_goodput", bw.goodput, percent(bw.goodput));
      put("best_write_bandwidth_cost", bw.storage_cost_per_month, money(bw.storage_cost_per_month) + " a month");
      put("best_write_bandwidth_net", bw.net_per_month, (bw.net_per_month < 0 ? "a loss of " + money(-bw.net_per_month)
        : money(bw.net_per_month)) + " a month");
    }
    return { values: out, items: items };
  }

  function renderDerived(container, result) {
    const box = container.querySelector("[data-role='derived']");
    const list = container.querySelector("[data-role='derived-list']");
    if (!box || !list) { return; }
    const found = result ? derivedOutputs(result) : { values: {}, items: [] };
    let any = found.items.length > 0;
    for (const cell of container.querySelectorAll("[data-derived]")) {
      const entry = found.values[cell.getAttribute("data-derived")];
      const row = cell.closest("tr");
      if (entry === undefined) { blank(cell, "—"); row.hidden = true; continue; }
      show(cell, entry.value, entry.text);
      row.hidden = false;
      any = true;
    }
    list.innerHTML = found.items.map((text) => "<li>" + glue(escapeHtml(text)) + "</li>").join("");
    box.hidden = !any;
  }

  function render(container, result, refusal) {
    renderDerived(container, result);
    const outputs = container.querySelectorAll(".gc-table [data-output]");
    const kind = result && result.kind;
    container.setAttribute("data-kind", kind || "none");
    for (const row of container.querySelectorAll("[data-tiers-only]")) { row.hidden = kind !== "tiers"; }
    // a drain row only with a drain, as goodput plan lists it (goodput.plan.Plan.drained)
    for (const row of container.querySelectorAll("[data-drain-only]")) { row.hidden = !(result && result.inputs.D > 0); }
    // the storage lever doubles the read bandwidth as well only where the inputs state one (goodput.params.at_bandwidths)
    const store = result && result.inputs.known ? result.inputs.known.store : null;
    for (const words of container.querySelectorAll("[data-read-stated]")) { words.hidden = !store || store.rb === null; }
    orderLevers(container, result);
    for (const element of outputs) {
      const key = element.getAttribute("data-output");
      const model = element.getAttribute("data-model");
      const plan = result ? (model === "exact" ? result.exact : result.first) : null;
      // the first-order verdict of goodput.model.RangeCheck.status: no first-order number unless "ok" or "caution"
      const refused = plan && plan.status && plan.status !== "ok" && plan.status !== "caution" && key !== "mtbi_min";
      const lever = element.getAttribute("data-lever");
      let value = null;
      if (plan && !refused) {
        value = key === "levers" ? (plan.levers ? plan.levers[lever] : null) : plan[key];
      }
      if (value === null || value === undefined || !Number.isFinite(value)) {
        blank(element, "—");
        continue;
      }
      let text;
      if (DURATION_OUTPUTS.has(key)) { text = formatDuration(value); }
      else if (key === "persistent_every") { text = value.toLocaleString("en-US"); }
      else if (key === "lost_capacity") { text = money(Math.max(0, value)) + " a month"; }
      else if (key === "levers" && plan.at_optimum.includes(lever)) { text = K.at_optimum; }
      else if (key === "levers") {
        const dollars = plan.lever_dollars[lever];
        text = gain(value) + (dollars === null ? "" : ", " + money(Math.max(0, isLoss(value) ? -dollars : dollars)) +
          " a month");
      }
      else if (LOSS_OUTPUTS.has(key)) { text = percentSig2(value); }
      else { text = percent(value); }
      show(element, value, text);
    }
    const say = (role, html) => { container.querySelector("[data-role='" + role + "']").innerHTML = glue(html); };
    if (!result) {
      say("recommendation", "");
      say("warning", refusal ? "No plan: " + escapeHtml(refusal) + "." : "");
      say("note", "");
      drawCurve(container.querySelector("[data-role='curve']"), null);
      return;
    }
    say("recommendation", recommendation(result));
    say("warning", [warning(result), notPaying(result)].filter(Boolean).join("<br>"));  // each on a line of its own
    say("note", note(result));
    drawCurve(container.querySelector("[data-role='curve']"), result);
  }

  // The lever rows as goodput plan lists the levers: those of the scheme, largest gain by the exact model first
  // (the model recommended from); the others hidden. With no plan, the four levers of one tier, blank.
  function orderLevers(container, result) {
    const rows = new Map();
    for (const cell of container.querySelectorAll(".gc-table td[data-model='exact'][data-output='levers']")) {
      rows.set(cell.getAttribute("data-lever"), cell.closest("tr"));
    }
    const names = result ? leverOrder(result.exact.levers) : K.levers.slice();
    const shown = new Set(names);
    for (const name of names.concat(Array.from(rows.keys()).filter((key) => !shown.has(key)))) {
      const row = rows.get(name);
      if (!row) { continue; }
      row.hidden = !shown.has(name);
      row.parentNode.appendChild(row);
    }
  }

  // Text the page writes as prose, a number kept with its unit at a line break: a no-break space (U+00A0) between
  // them, as goodput plan glues them for a terminal (goodput.report._wrap), and inside "1 min 30 s" ("over a month
  // of 730 h", not "730" at a line's end and "h" on the next). Safe on the page's HTML: no tag holds a digit, a
  // space and a unit.
  const GLUED_UNIT = new RegExp("([0-9]) (?=(?:ms|s|min|h|days?|years?|points?|[kMGTP]?B(?:/s)?|GPUs?|" +
    "spare nodes?|nodes?)(?![A-Za-z0-9-]))", "g");
  function glue(text) {
    return String(text).replace(GLUED_UNIT, "$1\u00a0").replace(/(\bmin) (?=[0-9]+\u00a0s\b)/g, "$1\u00a0");
  }

  function escapeHtml(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  function span(model, key, value, text) {
    return '<span data-model="' + model + '" data-output="' + key + '" data-value="' + String(value) + '">' + text + "</span>";
  }

  // goodput.report.recommendation: the interval to use and the goodput it leaves, with the persistent cadence.
  function recommendation(result) {
    const e = result.exact, x = result.inputs;
    const interval = span("exact", "optimal_interval_min", e.optimal_interval_min, formatDuration(e.optimal_interval_min));
    let head = "Checkpoint every " + interval + " of work", cycle = "";
    if (result.kind === "tiers") {
      const n = span("exact", "persistent_every", e.persistent_every, ordinal(e.persistent_every));
      head += e.persistent_every === 1 ? ", every checkpoint to the persistent tier"
        : ", every " + n + " one to the persistent tier";
      if (e.persistent_every !== 1) { cycle = "every " + formatDuration(e.persistent_every * e.optimal_interval_min) + "; "; }
      if (x.n !== null) { head += " as the inputs fix it"; }
    }
    // goodput.plan.Plan.drain_bound: the optimum is the drain itself
    const bound = x.D > 0 && Math.abs(e.optimal_interval_min - x.D) <= 1e-9 * x.D;
    head += " (" + cycle + (bound ? "the drain itself: the exact optimum is shorter" :
      "exact optimum for exponential failures") + "): goodput ";
    let text;
    if (x.T === null) {
      text = head + span("exact", "goodput", e.goodput, percent(e.goodput)) + ".";
    } else {
      const atBest = e.goodput + e.levers[K.levers[3]];
      text = head + percent(atBest) + ". The interval in use, " + formatDuration(e.interval_min) + ", gives " +
        span("exact", "goodput", e.goodput, percent(e.goodput)) + " (" + points(Math.max(0, atBest - e.goodput)) +
        " less).";
    }
    if (result.kind === "tiers" && e.persistent_every === 1 && x.n === null) {
      text += " Fast checkpoints between persistent ones do not pay here.";
    }
    return text;
  }

  // goodput.report.ordinal.
  function ordinal(n) {
    const suffix = (n % 100 >= 10 && n % 100 <= 20) ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
    return n.toLocaleString("en-US") + suffix;
  }

  function points(x, digits) { const t = oneDecimal(100 * x, digits); return t + (Number(t) === 1 ? " point" : " points"); }

  // goodput.report.points_past: the decimals it takes a difference past a threshold to read past it ("3.02 points",
  // not "3.0 points (more than 3 points)").
  function pointsPast(x, limit) {
    for (let more = 1; more < 7; more++) {
      const text = points(x, more);
      if (Number(text.split(" ")[0]) > 100 * limit) { return text; }
    }
    return points(x);
  }

  function warning(result) {
    const p = result.first;
    if (p.status === "below zero") {
      return "First order is outside its range here: its goodput is zero or less, so no first-order number is " +
        "shown; the exact model applies.";
    }
    if (p.status === "out of range") {
      return "First order is outside its range here: it is " + pointsPast(p.error, K.first_order_tolerance) +
        " below the exact model (more than " +
        points(K.first_order_tolerance).replace(".0", "") + "), so no first-order number is shown; the exact model applies.";
    }
    if (p.status === "caution") {
      return "Caution: first order is " + pointsPast(p.error, K.first_order_caution) +
        " below the exact model here, so it underestimates goodput by that much; the exact model is closer.";
    }
    return "";
  }

  function note(result) {
    const parts = [];
    if (result.kind === "tiers") {
      parts.push("With a persistent tier the exact model is <code>goodput plan</code>'s two-tier chain (the package's " +
        "<code>goodput.tiers</code>), ported to this page." +
        (result.inputs.n === null ? " n is the best whole n by each model (first order's own, as <code>goodput " +
          "plan</code>'s cross-check), re-chosen for each lever; how far first order is off is judged at the exact " +
          "model's n." : ""));
    } else if (result.kind === "drain") {
      parts.push("With a drain, goodput and checkpoint overhead are the single-level ones times e<sup>−D/M</sup>, " +
        "the optimum is no shorter than D, and first order adds the loss D/M.");
    }
    const x = result.inputs;
    if (x.gpus === null) {
      parts.push("Dollars need the number of GPUs: give it to see what the losses and each lever are worth.");
    } else {
      parts.push("Dollars are capacity at list price: " + x.gpus.toLocaleString("en-US") + " GPUs at $" +
        formatG(x.price, 6) + " per GPU-hour over a month of " + escapeHtml(x.monthText) +
        (x.priceDefault || x.monthDefault ? " (" + [x.priceDefault ? "the price" : "", x.monthDefault ? "the month" : ""]
          .filter(Boolean).join(" and ") + " the worked example's)" : "") + ".");
    }
    return parts.join(" ");
  }

  // ------------------------------------------------------------------ the curve (inline SVG)

  const SVG = "http://www.w3.org/2000/svg";

  function el(name, attributes, text) {
    const node = document.createElementNS(SVG, name);
    for (const key of Object.keys(attributes)) { node.setAttribute(key, String(attributes[key])); }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function niceStep(span, count) {
    const raw = span / count, power = Math.pow(10, Math.floor(Math.log10(raw)));
    const unit = raw / power;
    return power * (unit < 1.5 ? 1 : unit < 3.5 ? 2 : unit < 7.5 ? 5 : 10);
  }

  function curveModels(result) {
    const x = result.inputs;
    const models = [];
    const tiered = result.kind === "tiers";
    const n = result.exact.persistent_every;
    const sc = tiered ? scheme(x, n) : null;
    const rec = recoveryOf(x);
    models.push({ name: "exact model", cls: "gc-exact", plan: result.exact, lowest: x.D,
      at: tiered ? (t) => tierExactAt(sc, x.M, t, rec).goodput : (t) => exactPlan(x, t).goodput });
    const p = result.first;
    if (p.status === "ok" || p.status === "caution") {
      const at = tiered ? (t) => tierFirstLosses(sc, x.M, t, rec).goodput : (t) => firstOrderPlan(x, t).goodput;
      models.push({ name: "first order", cls: "gc-first", plan: p, at: at, lowest: x.D });
    }
    return models;
  }

  function drawCurve(holder, result) {
    holder.textContent = "";
    if (!result) { return; }
    const models = curveModels(result);
    if (!models.length) { return; }
    const x = result.inputs;
    const optima = models.map((m) => m.plan.optimal_interval_min);
    const marks = optima.concat(x.T === null ? [] : [x.T]);
    let low = Math.min.apply(null, marks) / 6, high = Math.max.apply(null, marks) * 6;
    low = Math.max(low, Math.max.apply(null, models.map((m) => m.lowest)) * 1.0001 || low);
    if (!(high > low)) { high = low * 10; }
    const N = 160, series = [];
    let yLow = Infinity, yHigh = -Infinity;
    for (const m of models) {
      const points = [];
      for (let i = 0; i <= N; i++) {
        const t = low * Math.pow(high / low, i / N);
        if (t + 1e-12 < m.lowest) { continue; }
        const g = m.at(t);
        if (!Number.isFinite(g)) { continue; }
        points.push([t, g]);
      }
      series.push(points);
      for (const [, g] of points) { yLow = Math.min(yLow, g); yHigh = Math.max(yHigh, g); }
    }
    if (!Number.isFinite(yLow) || !Number.isFinite(yHigh) || !Number.isFinite(high) || !(low > 0)) { return; }
    yHigh = Math.min(1, yHigh + 0.02);
    const top = yHigh;
    yLow = Math.max(0, Math.min(Math.max(yLow, top - 0.6), top - 0.05));  // at least 5 points of goodput tall
    const W = 640, H = 360, left = 62, right = 16, upper = 40, lower = 52;
    const px = (t) => left + (Math.log(t / low) / Math.log(high / low)) * (W - left - right);
    const py = (g) => upper + (1 - (Math.max(g, yLow) - yLow) / (top - yLow)) * (H - upper - lower);
    const svg = el("svg", { viewBox: "0 0 " + W + " " + H, role: "img", class: "gc-svg",
      "aria-label": "Goodput against the checkpoint interval, by the exact model and by first order" });
    svg.appendChild(el("title", {}, "Goodput against the checkpoint interval"));
    // axes and ticks
    const axis = el("g", { class: "gc-axis" });
    axis.appendChild(el("line", { x1: left, y1: H - lower, x2: W - right, y2: H - lower }));
    axis.appendChild(el("line", { x1: left, y1: upper, x2: left, y2: H - lower }));
    const yStep = niceStep(top - yLow, 5), yFirst = Math.ceil(yLow / yStep) * yStep;
    for (let i = 0; i <= 20; i++) {  // a bounded count of ticks: a step below an ulp would never move g
      const g = yFirst + i * yStep;
      if (!(g <= top + 1e-12)) { break; }
      axis.appendChild(el("line", { x1: left - 4, y1: py(g), x2: W - right, y2: py(g), class: "gc-grid" }));
      axis.appendChild(el("text", { x: left - 7, y: py(g) + 4, "text-anchor": "end" }, fixed(100 * g, yStep < 0.01 ? 1 : 0)));
    }
    const decadeLow = Math.floor(Math.log10(low)), decadeHigh = Math.min(Math.ceil(Math.log10(high)), decadeLow + 40);
    for (let k = decadeLow; k <= decadeHigh; k++) {
      for (const f of [1, 2, 5]) {
        const t = f * Math.pow(10, k);
        if (t < low || t > high) { continue; }
        axis.appendChild(el("line", { x1: px(t), y1: H - lower, x2: px(t), y2: H - lower + 4 }));
        axis.appendChild(el("text", { x: px(t), y: H - lower + 17, "text-anchor": "middle" }, significant(t)));  // "1,000", as the book's figures
      }
    }
    axis.appendChild(el("text", { x: (left + W - right) / 2, y: H - 10, "text-anchor": "middle", class: "gc-label" },
      "checkpoint interval T (minutes of work, log scale)"));
    axis.appendChild(el("text", { x: 14, y: (upper + H - lower) / 2, "text-anchor": "middle", class: "gc-label",
      transform: "rotate(-90 14 " + (upper + H - lower) / 2 + ")" }, "goodput (%)"));
    svg.appendChild(axis);
    // the interval evaluated: the one typed, or the exact optimum where none is (as the caption says)
    const evaluated = x.T !== null ? x.T : result.exact.interval_min;
    if (evaluated >= low && evaluated <= high) {
      svg.appendChild(el("line", { x1: px(evaluated), y1: upper, x2: px(evaluated), y2: H - lower, class: "gc-chosen" }));
      const onRight = px(evaluated) < (left + W - right) / 2;
      svg.appendChild(el("text", { x: px(evaluated) + (onRight ? 4 : -4), y: H - lower - 8, class: "gc-label",
        "text-anchor": onRight ? "start" : "end" }, "T = " + formatDuration(evaluated) + (x.T === null ? ", the optimum" : "")));
    }
    // curves, optima, legend
    models.forEach((m, i) => {
      let d = "", pen = "M";  // a curve that falls below the axis is cut there, not drawn along it
      for (const [t, g] of series[i]) {
        if (g < yLow) { pen = "M"; continue; }
        d += pen + px(t).toFixed(1) + " " + py(g).toFixed(1) + " ";
        pen = "L";
      }
      svg.appendChild(el("path", { d: d, class: "gc-line " + m.cls }));
      const best = m.plan.optimal_interval_min;
      svg.appendChild(el("circle", { cx: px(best), cy: py(m.at(best)), r: 4.5, class: "gc-dot " + m.cls }));
      const ly = 14, lx = left + 290 * i;  // the legend, above the plot
      svg.appendChild(el("line", { x1: lx, y1: ly - 4, x2: lx + 28, y2: ly - 4, class: "gc-line " + m.cls }));
      svg.appendChild(el("text", { x: lx + 34, y: ly, class: "gc-legend" },
        m.name + ", optimum " + formatDuration(best)));
    });
    holder.appendChild(svg);
  }

  // ------------------------------------------------------------------ the address and the file

  // The address's inputs into the form. Returns {given: whether the address gave any input, errors: {field: why}}
  // for a field given more than once (refused, not read as its first value).
  function readAddress(form) {
    const query = new URLSearchParams(root.location.search);
    const any = FIELDS.some((key) => query.has(key));
    const errors = {};
    for (const key of FIELDS) {
      const values = query.getAll(key);
      if (values.length > 1) {
        errors[key] = "one value for " + key + " in the page's address, not " + values.length;
        form.elements[key].value = "";
        continue;
      }
      form.elements[key].value = any ? (values.length ? values[0] : "") : (START[key] || "");
    }
    openFolded(form, errors);
    return { given: any, errors: errors };
  }

  // A folded section of the form opens when one of its fields holds a value or an error.
  function openFolded(form, errors, errorsOnly) {
    for (const details of form.querySelectorAll("details")) {
      if (Array.from(details.querySelectorAll("input")).some((i) => (!errorsOnly && i.value !== "") ||
        (errors && errors[i.name]))) {
        details.open = true;
      }
    }
  }

  // A duration the inputs derive shows the derived value in its empty field; the field itself is refused if typed too.
  function showDerived(form, x) {
    const notes = x && x.derived ? x.derived.notes : {};
    const values = { checkpoint_cost: x && x.C, drain: x && x.D, restart: x && x.R, load: x && x.derived && x.derived.parts ?
      x.derived.parts.load : null };
    for (const key of ["checkpoint_cost", "drain", "restart", "load"]) {
      const input = form.elements[key];
      if (!input.hasAttribute("data-placeholder")) { input.setAttribute("data-placeholder", input.getAttribute("placeholder") || ""); }
      input.setAttribute("placeholder", notes[key] && Number.isFinite(values[key]) ? "derived: " + formatDuration(values[key])
        : input.getAttribute("data-placeholder"));
    }
  }

  function writeAddress(raw) {
    const query = new URLSearchParams();
    for (const key of FIELDS) {
      if (raw[key] !== undefined && raw[key] !== "") { query.set(key, raw[key]); }
    }
    const text = query.toString();
    const url = root.location.pathname + (text ? "?" + text : "") + root.location.hash;
    try { root.history.replaceState(null, "", url); } catch (error) { /* an address that cannot change */ }
  }

  // A value as YAML reads it back unchanged: plain when it is plainly safe, else a double-quoted (JSON) string,
  // so that a tab between number and unit, which goodput plan accepts, reaches it intact.
  function yamlValue(text) {
    return /^[0-9A-Za-z.+][0-9A-Za-z.+ -]*$/.test(text) && !/ $/.test(text) ? text : JSON.stringify(text);
  }

  // The inputs as a complete params.yml for `goodput plan --params` (see the page for the defaults).
  function paramsYaml(given, x) {
    const raw = Object.assign(Object.fromEntries(FIELDS.map((key) => [key, ""])), given);
    const value = (key) => yamlValue(pythonStrip(raw[key]));
    const defaults = K.file_defaults;
    const lines = ["# Inputs written by the goodput book's calculator page; read with: goodput plan --params params.yml"];
    lines.push("gpus: " + (x.gpus !== null ? value("gpus") : defaults.gpus +
      "  # not given: the worked example's; with M given directly it only counts capacity"));
    lines.push(x.mtbi !== null ? "mtbi: " + value("mtbi") : "rate_per_gpu_hour: " + value("rate_per_gpu_hour"));
    const has = (key) => raw[key] !== undefined && pythonStrip(raw[key]) !== "";
    const mapping = (keys) => keys.filter(([field]) => has(field)).map(([field, key]) => key + ": " + value(field)).join(", ");
    if (!(x.known && x.known.store)) {  // with storage both are derived (goodput.params.derive)
      lines.push("checkpoint_cost: " + value("checkpoint_cost"));
      if (!has("slow_checkpoint_cost")) {
        lines.push("slow_checkpoint_cost: " + value("checkpoint_cost") + "  # not given: the checkpoint cost");
      }
    } else if (x.known.store.stall) {  // C typed beside the snapshot: the measured stall; the slow C still derived
      lines.push("checkpoint_cost: " + value("checkpoint_cost"));
    }
    if (has("slow_checkpoint_cost")) { lines.push("slow_checkpoint_cost: " + value("slow_checkpoint_cost")); }
    if (has("restart")) { lines.push("restart: " + value("restart")); }
    const parts = PART_FIELDS.filter(has);
    if (parts.length) { lines.push("restart: {" + mapping(parts.map((key) => [key, key])) + "}"); }
    lines.push("price_per_gpu_hour: " + (x.priceDefault ? defaults.price_per_gpu_hour + "  # not given: the worked example's"
      : value("price_per_gpu_hour")));
    lines.push("month: " + (x.monthDefault ? defaults.month + "  # not given: the worked example's" : value("month")));
    if (raw.drain !== undefined && pythonStrip(raw.drain) !== "") { lines.push("drain: " + value("drain")); }
    if (x.tiers) {
      const parts = ["cost: " + value("persistent_cost")];
      if (pythonStrip(raw.persistent_restart) !== "") { parts.push("restart: " + value("persistent_restart")); }
      if (pythonStrip(raw.persistent_every) !== "") { parts.push("every: " + value("persistent_every")); }
      lines.push("persistent: {" + parts.join(", ") + "}");
      lines.push("fast_survives: " + value("fast_survives"));
    }
    // what a planner knows, in the package's keys (goodput/params.py)
    if (has("checkpoint_size") || has("parameters")) {
      lines.push("checkpoint: {" + mapping([["checkpoint_size", "size"], ["parameters", "parameters"],
        ["bytes_per_parameter", "bytes_per_parameter"]]) + "}");
    }
    if (has("gpus_per_node")) { lines.push("gpus_per_node: " + value("gpus_per_node")); }
    if (has("write_bandwidth")) {
      const keys = [["write_bandwidth", "write_bandwidth"], ["read_bandwidth", "read_bandwidth"],
        ["bandwidth_efficiency", "efficiency"]];
      lines.push("storage: {" + mapping(keys.concat([["storage_price", "price"]])) + "}");
    } else if (has("storage_price")) {  // storage: needs its write bandwidth; the price alone is kept as a note
      lines.push("# The price of storage bandwidth, " + JSON.stringify(pythonStrip(raw.storage_price)) +
        " dollars per GB/s a month, goes in storage: {price: ...} beside the storage's write bandwidth.");
    }
    if (has("snapshot_bandwidth")) {
      lines.push("snapshot: {" + mapping([["snapshot_bandwidth", "bandwidth"], ["host_memory", "host_memory"]]) + "}");
    }
    if (x.spares) {
      lines.push("spares: {" + mapping([["spares", "nodes"], ["repair", "repair"], ["takes_node", "takes_node"]]) + "}");
    }
    if (has("just_in_time")) {
      lines.push("just_in_time: " + (has("jit_recovery") ? "{" + mapping([["just_in_time", "share"],
        ["jit_recovery", "recovery"]]) + "}" : value("just_in_time")));
    }
    if (has("planned_rate")) { lines.push("planned: {rate: " + value("planned_rate") + "}"); }
    if (x.T !== null) {
      lines.push("# The interval evaluated is not a key of this file: goodput plan --params params.yml --interval " +
        JSON.stringify(pythonStrip(raw.interval)));
    }
    return lines.join("\n") + "\n";
  }

  function start(container) {
    const form = container.querySelector("form");
    const button = container.querySelector("[data-role='download']");
    const say = (role, text) => { container.querySelector("[data-role='" + role + "']").textContent = glue(text); };
    let current = null;
    const address = readAddress(form);
    const addressErrors = address.errors;
    say("origin", address.given ? "" : K.worked_example_note);
    const raw = () => {
      const out = {};
      for (const key of FIELDS) { out[key] = form.elements[key].value; }
      return out;
    };
    const update = () => {
      const typed = raw();
      writeAddress(typed);
      let checked = readInputs(typed);
      if (Object.keys(addressErrors).length) {
        checked = { errors: Object.assign({}, checked.errors || {}, addressErrors) };
      }
      let result = null, refusal = null;
      if (checked.inputs) {
        result = compute(checked.inputs);
        if (result.errors) { checked = result; result = null; }
        else if (result.refused) { refusal = result.refused; result = null; }
      }
      for (const key of FIELDS) {
        const message = checked.errors && checked.errors[key];
        const alert = container.querySelector("#gc-" + key + "-error");
        alert.textContent = message ? "Expected " + message + "." : "";
        form.elements[key].setAttribute("aria-invalid", message ? "true" : "false");
      }
      if (checked.errors) { openFolded(form, checked.errors, true); }
      showDerived(form, checked.inputs || null);
      for (const [key, role] of [["price_per_gpu_hour", "price-hint"], ["month", "month-hint"]]) {
        say(role, pythonStrip(typed[key]) === "" ? "Empty: the worked example's " +
          (key === "month" ? "accounting month, " + K.file_defaults.month : "price, $" + K.file_defaults.price_per_gpu_hour +
          " per GPU-hour") + ", is used." : "");
      }
      current = result ? { raw: typed, inputs: checked.inputs } : null;
      button.disabled = !result;
      say("file-note", result ? "" : "No params.yml to download: " + (refusal ? "goodput plan refuses these inputs as well ("
        + refusal + ")." : "correct the inputs marked above first."));
      render(container, result, refusal);
      container.setAttribute("data-ready", "true");
    };
    form.addEventListener("input", (event) => {
      if (event.target && event.target.name) { delete addressErrors[event.target.name]; }
      update();
    });
    form.addEventListener("submit", (event) => { event.preventDefault(); update(); });
    button.addEventListener("click", () => {
      if (!current) { return; }
      const blob = new Blob([paramsYaml(current.raw, current.inputs)], { type: "text/yaml" });
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = "params.yml";
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    });
    update();
  }

  root.goodputCalculator = {
    parseDuration: parseDuration, finite: finite, parseSize: parseSize, parseBandwidth: parseBandwidth,
    parseRate: parseRate, formatSize: formatSize, formatBandwidth: formatBandwidth, derivePlanner: derivePlanner, positive: positive, whole: whole, share: share,
    glue: glue, drawCurve: drawCurve, restartSum: restartSum, derivedOutputs: derivedOutputs, fixed: fixed, formatDuration: formatDuration, formatWait: formatWait, gain: gain, formatG: formatG, percent: percent, percentSig2: percentSig2, readInputs: readInputs, compute: compute,
    paramsYaml: paramsYaml, InputError: InputError, rangeStatus: rangeStatus, money: money,
    tierExactLosses: tierExactLosses, tierExactOptimal: tierExactOptimal, tierBestEvery: tierBestEvery, peak: peak,
    leverOrder: leverOrder, notPaying: notPaying, pointsPast: pointsPast, warning: warning, recommendation: recommendation,
  };

  if (typeof document !== "undefined") {
    const boot = () => {
      const container = document.getElementById("goodput-calculator");
      if (container) { start(container); }
    };
    if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", boot); } else { boot(); }
  }
})(globalThis);
