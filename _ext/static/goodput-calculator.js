// The goodput calculator page (book/calculator.md): reads the form, checks the inputs as the
// package does, and shows the plan by the exact model and by first order. No formula is written
// here: every one comes from goodput-formulas.js, generated at build time from the package's
// SymPy expressions (goodput.symbolic.calculator_formulas), with the package's units, number
// pattern, error messages, tolerances and levers. Loaded after goodput-lambertw.js and
// goodput-formulas.js. The parsing and formatting functions are exposed as goodputCalculator
// so that the tests can run them against the package's.
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
    if (!Object.prototype.hasOwnProperty.call(UNITS, unit)) {
      throw new InputError(MESSAGES.duration_unit.replace("{unit}", unit));
    }
    const minutes = number * UNITS[unit];
    if (!Number.isFinite(minutes) || minutes < 0 || (minutes === 0 && !opts.allowZero)) {
      throw new InputError(opts.allowZero ? MESSAGES.duration_non_negative : MESSAGES.duration_positive);
    }
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

  function whole(value, least) {
    const expected = MESSAGES.whole.replace("{least}", String(least));
    const number = finite(value, expected);
    if (number !== Math.floor(number) || number < least) { throw new InputError(expected); }
    return number;
  }

  function share(value) {
    const number = finite(value, MESSAGES.share);
    if (number < 0 || number > 1) { throw new InputError(MESSAGES.share); }
    return number;
  }

  // ------------------------------------------------------------------ writing numbers (goodput.units, goodput.report)

  // Python's format(x, ".{digits}g").
  function formatG(x, digits) {
    if (x === 0) { return "0"; }
    const exponential = x.toExponential(digits - 1);
    const exponent = Number(exponential.slice(exponential.indexOf("e") + 1));
    const strip = (s) => (s.indexOf(".") >= 0 ? s.replace(/0+$/, "").replace(/\.$/, "") : s);
    if (exponent >= -4 && exponent < digits) { return strip(x.toFixed(digits - 1 - exponent)); }
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
    if (x >= Math.pow(10, d)) { return roundHalfEven(x).toLocaleString("en-US"); }
    return formatG(x, d);
  }

  // goodput.units.format_duration.
  function formatDuration(minutes) {
    if (Number.isNaN(minutes)) { return "undefined"; }
    if (minutes < 0) { return "-" + formatDuration(-minutes); }
    if (minutes === Infinity) { return "unbounded"; }
    const seconds = minutes * 60;
    if (Math.round(seconds * 1e9) / 1e9 < 60) { return significant(seconds) + " s"; }
    if (minutes < 10 && Math.abs(seconds - Math.round(seconds)) < 1e-6) {
      const total = Math.round(seconds), whole = Math.floor(total / 60), rest = total % 60;
      return whole + " min" + (rest ? " " + rest + " s" : "");
    }
    if (minutes < 300) { return significant(minutes) + " min"; }
    if (minutes < 2 * DAY) { return significant(minutes / 60) + " h"; }
    if (minutes < YEAR) { return significant(minutes / DAY) + " days"; }
    const years = significant(minutes / YEAR);
    return years + " year" + (years === "1" ? "" : "s");
  }

  // goodput.report.percent.
  function percent(x) { return (100 * x).toFixed(1) + "%"; }

  // A lever's gain as the command prints it: "+2.9 points".
  function gain(x) {
    const text = (100 * x).toFixed(1);
    return (x >= 0 ? "+" : "") + text + (Number(text) === 1 ? " point" : " points");
  }

  // ------------------------------------------------------------------ the models

  // A range check of goodput.model.RangeCheck: "below zero", "out of range", "caution" or "ok".
  function rangeStatus(goodput, error) {
    if (goodput <= 0) { return "below zero"; }
    if (error > K.first_order_tolerance) { return "out of range"; }
    if (error > K.first_order_caution) { return "caution"; }
    return "ok";
  }

  // The exact model for one tier (with a drain D >= 0): optimum, and losses at T (the optimum if null).
  function exactPlan(C, M, R, D, T) {
    const drain = D > 0;
    const best = drain ? F.drain_exact_optimal_interval(C, M, D) : F.exact_optimal_interval(C, M);
    const t = T === null ? best : T;
    return {
      optimal_interval_min: best,
      interval_min: t,
      checkpoint_overhead: drain ? F.drain_exact_checkpoint_overhead(C, M, R, t, D) : F.exact_checkpoint_overhead(C, M, R, t),
      lost_work: F.exact_lost_work(C, M, R, t),
      restart_loss: F.exact_restart_loss(M, R),
      drain_loss: drain ? F.drain_exact_drain_loss(C, M, R, t, D) : null,
      goodput: drain ? F.drain_exact_goodput(C, M, R, t, D) : F.exact_goodput(C, M, R, t),
    };
  }

  // First order for one tier (goodput.model), or with a drain (goodput.tiers, n = 1, s = 0).
  function firstOrderPlan(C, M, R, D, T) {
    const drain = D > 0;
    const best = drain ? F.tiers_optimal_interval(C, C, 0, 1, M, D) : F.first_order_optimal_interval(C, M);
    const t = T === null ? best : T;
    const plan = drain ? {
      checkpoint_overhead: F.tiers_checkpoint_overhead(C, C, 1, t),
      lost_work: F.tiers_lost_work(0, 1, M, t),
      restart_loss: F.tiers_restart_loss(R, R, 0, M),
      drain_loss: F.tiers_drain_loss(0, M, D),
      goodput: F.tiers_goodput(C, C, R, R, 0, 1, M, t, D),
    } : {
      checkpoint_overhead: F.first_order_checkpoint_overhead(C, t),
      lost_work: F.first_order_lost_work(M, t),
      restart_loss: F.first_order_restart_loss(M, R),
      drain_loss: null,
      goodput: F.first_order_goodput(C, M, R, t),
    };
    // goodput.exact.range_check: how far first order lies below the exact model, each at its own optimum when
    // no interval is given, both at the interval otherwise.
    plan.error = exactPlan(C, M, R, D, T).goodput - plan.goodput;
    plan.optimal_interval_min = best;
    plan.interval_min = t;
    plan.status = rangeStatus(plan.goodput, plan.error);
    return plan;
  }

  // First order for two tiers (goodput.tiers.first_order_losses) at cadence n.
  function tiersPlan(x, n, T) {
    const best = F.tiers_optimal_interval(x.C, x.Cp, x.s, n, x.M, x.D);
    const t = T === null ? best : T;
    const goodput = F.tiers_goodput(x.C, x.Cp, x.R, x.Rp, x.s, n, x.M, t, x.D);
    return {
      persistent_every: n,
      persistent_interval_min: n * t,
      optimal_interval_min: best,
      interval_min: t,
      checkpoint_overhead: F.tiers_checkpoint_overhead(x.C, x.Cp, n, t),
      lost_work: F.tiers_lost_work(x.s, n, x.M, t),
      restart_loss: F.tiers_restart_loss(x.R, x.Rp, x.s, x.M),
      drain_loss: F.tiers_drain_loss(x.s, x.M, x.D),
      goodput: goodput,
      status: goodput <= 0 ? "below zero" : "ok",
    };
  }

  // goodput.tiers.best_every(which="first-order"): walk from the rounded continuous optimum while goodput improves.
  function bestEvery(x) {
    const value = (n) => F.tiers_goodput(x.C, x.Cp, x.R, x.Rp, x.s, n, x.M,
      F.tiers_optimal_interval(x.C, x.Cp, x.s, n, x.M, x.D), x.D);
    const guess = x.s >= 1 ? Infinity : F.tiers_every(x.C, x.Cp, x.s);
    const centre = Number.isFinite(guess) ? Math.max(1, Math.min(K.max_every, roundHalfEven(guess))) : K.max_every;
    let bestN = centre, best = value(centre);
    for (const step of [-1, 1]) {
      for (let n = centre + step; n >= 1 && n <= K.max_every; n += step) {
        const v = value(n);
        if (v <= best) { break; }
        bestN = n;
        best = v;
      }
    }
    return bestN;
  }

  // goodput.plan.plan_levers, by the model of `plan(x, T)` (x: the inputs; T null: the optimum). Each input
  // lever re-optimizes the interval (and n, where the plan chose it); the interval lever moves T to the optimum.
  function levers(plan, x) {
    const best = plan(x, null).goodput;
    const at = (changes) => plan(Object.assign({}, x, changes), null).goodput - best;
    const names = K.levers, tierNames = K.tier_levers;
    const out = {};
    out[names[0]] = at({ C: x.C / 2 });
    out[names[1]] = at({ R: x.R / 2, Rp: x.tiers ? x.Rp : x.R / 2 });
    out[names[2]] = at({ M: 2 * x.M });
    out[names[3]] = best - plan(x, x.T).goodput;
    if (x.D > 0) { out[tierNames[0]] = at({ D: x.D / 2 }); }
    if (x.tiers && x.s < 1) { out[tierNames[1]] = at({ s: x.s + (1 - x.s) / 2 }); }
    return out;
  }

  // ------------------------------------------------------------------ the form

  const FIELDS = ["gpus", "rate_per_gpu_hour", "mtbi", "checkpoint_cost", "restart", "interval", "drain",
    "persistent_cost", "persistent_restart", "fast_survives", "persistent_every"];
  // The worked example's inputs (M rounded as the book quotes it), shown when the address gives none.
  const START = { gpus: "16384", mtbi: "186 min", checkpoint_cost: "1 min", restart: "5 min" };

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
    const need = (key, what) => { if (!given(key)) { errors[key] = "a value: " + what; } };
    const duration = (value) => parseDuration(value);
    x.gpus = read("gpus", (v) => whole(v, 1));
    x.rate = read("rate_per_gpu_hour", positive);
    x.mtbi = read("mtbi", duration);
    if (given("rate_per_gpu_hour") && given("mtbi")) {
      errors.mtbi = errors.rate_per_gpu_hour = "exactly one of a per-GPU rate (with GPUs) or M, not both";
    } else if (!given("rate_per_gpu_hour") && !given("mtbi")) {
      errors.mtbi = "a value: M, or a per-GPU rate with GPUs";
    } else if (given("rate_per_gpu_hour")) {
      need("gpus", "the number of GPUs, which the per-GPU rate is multiplied by");
    }
    need("checkpoint_cost", MESSAGES.duration);
    need("restart", MESSAGES.duration);
    x.C = read("checkpoint_cost", duration);
    x.R = read("restart", duration);
    x.T = read("interval", duration);
    x.D = read("drain", (v) => parseDuration(v, { allowZero: true }));
    if (x.D === null) { x.D = 0; }
    x.Cp = read("persistent_cost", duration);
    x.Rp = read("persistent_restart", duration);
    x.s = read("fast_survives", share);
    x.n = read("persistent_every", (v) => whole(v, 1));
    x.tiers = given("persistent_cost");
    if (x.tiers) {
      if (x.Cp !== null && x.C !== null && x.Cp < x.C) {
        errors.persistent_cost = "a persistent checkpoint no cheaper than the fast one (" + formatDuration(x.C) + ")";
      }
      if (x.Rp !== null && x.R !== null && x.Rp < x.R) {
        errors.persistent_restart = "a persistent restart no shorter than the fast restart (" + formatDuration(x.R) + ")";
      }
      if (!given("fast_survives")) {
        errors.fast_survives = "a value with a persistent tier: the share of interruptions the fast tier survives, 0 to 1";
      }
      if (x.n !== null && x.n > K.max_every) {
        errors.persistent_every = "a whole number from 1 to " + K.max_every.toLocaleString("en-US");
      }
    } else {
      for (const key of ["persistent_restart", "fast_survives", "persistent_every"]) {
        if (given(key)) { errors[key] = "a persistent checkpoint cost as well: this only applies with two tiers"; }
      }
    }
    if (Object.keys(errors).length) { return { errors: errors }; }
    x.M = x.mtbi !== null ? x.mtbi : F.mtbi_from_rate(x.rate, x.gpus);
    if (x.tiers && x.Rp === null) { x.Rp = x.R; }
    if (!(x.M > 0) || !Number.isFinite(x.M)) { return { errors: { mtbi: "a finite mean time between interruptions" } }; }
    return { inputs: x };
  }

  // The two-tier first-order plan of goodput.plan: n as given, or the best whole n by first order.
  function tiersFirstOrder(x, T) {
    return tiersPlan(x, x.n !== null ? x.n : bestEvery(x), T);
  }

  // The plan for checked inputs: {kind, inputs, exact, first}, or {errors} when the interval is shorter than the drain.
  function compute(x) {
    const kind = x.tiers ? "tiers" : (x.D > 0 ? "drain" : "single");
    if (x.T !== null && x.T < x.D) {  // goodput.plan: one drain in flight at a time
      return { errors: { interval: MESSAGES.interval_drain.replace("{drain}", formatG(x.D, 6)) } };
    }
    if (kind === "tiers") {
      const first = tiersFirstOrder(x, x.T);
      first.mtbi_min = x.M;
      first.levers = levers(tiersFirstOrder, x);
      return { kind: kind, inputs: x, first: first, exact: { mtbi_min: x.M, tiersNotComputed: true } };
    }
    const exact = exactPlan(x.C, x.M, x.R, x.D, x.T);
    const first = firstOrderPlan(x.C, x.M, x.R, x.D, x.T);
    exact.mtbi_min = first.mtbi_min = x.M;
    exact.levers = levers((y, t) => exactPlan(y.C, y.M, y.R, y.D, t), x);
    first.levers = levers((y, t) => firstOrderPlan(y.C, y.M, y.R, y.D, t), x);
    return { kind: kind, inputs: x, first: first, exact: exact };
  }

  // ------------------------------------------------------------------ the page

  const DURATION_OUTPUTS = new Set(["mtbi_min", "optimal_interval_min", "interval_min", "persistent_interval_min"]);

  function show(element, value, text) {
    element.textContent = text;
    element.setAttribute("data-value", String(value));
  }

  function blank(element, text) {
    element.textContent = text || "—";
    element.removeAttribute("data-value");
  }

  function render(container, result) {
    const outputs = container.querySelectorAll("[data-output]");
    const kind = result && result.kind;
    container.setAttribute("data-kind", kind || "none");
    for (const row of container.querySelectorAll("[data-tiers-only]")) { row.hidden = kind !== "tiers"; }
    for (const row of container.querySelectorAll("[data-drain-only]")) { row.hidden = kind !== "tiers" && kind !== "drain"; }
    for (const element of outputs) {
      const key = element.getAttribute("data-output");
      const model = element.getAttribute("data-model");
      const plan = result ? (model === "exact" ? result.exact : result.first) : null;
      const refused = plan && plan.status && plan.status !== "ok" && plan.status !== "caution" && key !== "mtbi_min";
      let value = null;
      if (plan && !refused) {
        value = key === "levers" ? (plan.levers ? plan.levers[element.getAttribute("data-lever")] : null) : plan[key];
      }
      if (value === null || value === undefined || !Number.isFinite(value)) {
        blank(element, plan && plan.tiersNotComputed ? "not computed here" : "—");
        continue;
      }
      let text;
      if (DURATION_OUTPUTS.has(key)) { text = formatDuration(value); }
      else if (key === "persistent_every") { text = value.toLocaleString("en-US"); }
      else if (key === "levers") { text = gain(value); }
      else { text = percent(value); }
      show(element, value, text);
    }
    const say = (role, html) => { container.querySelector("[data-role='" + role + "']").innerHTML = html; };
    if (!result) {
      say("recommendation", "");
      say("warning", "");
      say("note", "");
      say("file-note", "");
      drawCurve(container.querySelector("[data-role='curve']"), null);
      return;
    }
    say("recommendation", recommendation(result));
    say("warning", warning(result));
    say("note", note(result));
    say("file-note", "");
    drawCurve(container.querySelector("[data-role='curve']"), result);
  }

  function span(model, key, value, text) {
    return '<span data-model="' + model + '" data-output="' + key + '" data-value="' + String(value) + '">' + text + "</span>";
  }

  function recommendation(result) {
    if (result.kind === "tiers") {
      const p = result.first;
      if (p.status !== "ok") { return ""; }
      return "By first order (the two-tier model is not computed exactly here): checkpoint every " +
        span("first-order", "optimal_interval_min", p.optimal_interval_min, formatDuration(p.optimal_interval_min)) +
        " of work, every " + span("first-order", "persistent_every", p.persistent_every, ordinal(p.persistent_every)) +
        " checkpoint persistent: goodput " + span("first-order", "goodput", p.goodput, percent(p.goodput)) + ".";
    }
    const e = result.exact;
    const head = "Checkpoint every " + span("exact", "optimal_interval_min", e.optimal_interval_min,
      formatDuration(e.optimal_interval_min)) + " of work (exact optimum for exponential failures): goodput ";
    const atBest = exactPlan(result.inputs.C, result.inputs.M, result.inputs.R, result.inputs.D, null).goodput;
    if (result.inputs.T === null) { return head + span("exact", "goodput", e.goodput, percent(e.goodput)) + "."; }
    return head + percent(atBest) + ". The interval evaluated, " + formatDuration(e.interval_min) + ", gives " +
      span("exact", "goodput", e.goodput, percent(e.goodput)) + " (" + gain(atBest - e.goodput).slice(1) + " less).";
  }

  // goodput.report.ordinal.
  function ordinal(n) {
    const suffix = (n % 100 >= 10 && n % 100 <= 20) ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
    return n.toLocaleString("en-US") + suffix;
  }

  function points(x) { const t = (100 * x).toFixed(1); return t + (Number(t) === 1 ? " point" : " points"); }

  function warning(result) {
    const p = result.first;
    if (p.status === "below zero") {
      return "First order is outside its range: its goodput is " + (100 * p.goodput).toFixed(0) +
        "%, below zero, so no first-order number is shown" + (result.exact ? "; the exact model applies." : ".");
    }
    if (p.status === "out of range") {
      return "First order is outside its range: it is " + points(p.error) + " below the exact model here (more than " +
        points(K.first_order_tolerance).replace(".0", "") + "), so no first-order number is shown; the exact model applies.";
    }
    if (p.status === "caution") {
      return "Caution: first order is " + points(p.error) +
        " below the exact model here, so it underestimates goodput by that much; the exact model is closer.";
    }
    return "";
  }

  function note(result) {
    if (result.kind === "tiers") {
      return "With a persistent tier the page computes first order only: the exact two-tier model, and with it " +
        "the check of how far first order holds, is <code>goodput plan</code>'s (the package's " +
        "<code>goodput.tiers</code>); here first order is refused only at a goodput of zero or less. " +
        (result.inputs.n === null ? "n is the best whole n by first order, re-chosen for each lever." : "");
    }
    if (result.kind === "drain") {
      return "With a drain, goodput and checkpoint overhead are the single-level ones times e<sup>−D/M</sup>, " +
        "the optimum is no shorter than D, and first order adds the loss D/M; how far first order holds is " +
        "judged, as goodput plan judges it, by its distance from the exact model.";
    }
    return "";
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
    if (result.exact && !result.exact.tiersNotComputed) {
      models.push({ name: "exact model", cls: "gc-exact", plan: result.exact,
        at: (t) => exactPlan(x.C, x.M, x.R, x.D, t).goodput, lowest: x.D });
    }
    const p = result.first;
    if (p.status === "ok" || p.status === "caution") {
      const at = result.kind === "tiers"
        ? (t) => tiersPlan(x, p.persistent_every, t).goodput
        : (t) => firstOrderPlan(x.C, x.M, x.R, x.D, t).goodput;
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
    yHigh = Math.min(1, yHigh + 0.02);
    const top = yHigh;
    yLow = Math.max(0, Math.max(yLow, top - 0.6));
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
    const yStep = niceStep(top - yLow, 5);
    for (let g = Math.ceil(yLow / yStep) * yStep; g <= top + 1e-12; g += yStep) {
      axis.appendChild(el("line", { x1: left - 4, y1: py(g), x2: W - right, y2: py(g), class: "gc-grid" }));
      axis.appendChild(el("text", { x: left - 7, y: py(g) + 4, "text-anchor": "end" }, (100 * g).toFixed(yStep < 0.01 ? 1 : 0)));
    }
    const decadeLow = Math.floor(Math.log10(low)), decadeHigh = Math.ceil(Math.log10(high));
    for (let k = decadeLow; k <= decadeHigh; k++) {
      for (const f of [1, 2, 5]) {
        const t = f * Math.pow(10, k);
        if (t < low || t > high) { continue; }
        axis.appendChild(el("line", { x1: px(t), y1: H - lower, x2: px(t), y2: H - lower + 4 }));
        axis.appendChild(el("text", { x: px(t), y: H - lower + 17, "text-anchor": "middle" }, formatG(t, 3)));
      }
    }
    axis.appendChild(el("text", { x: (left + W - right) / 2, y: H - 10, "text-anchor": "middle", class: "gc-label" },
      "checkpoint interval T (minutes of work, log scale)"));
    axis.appendChild(el("text", { x: 14, y: (upper + H - lower) / 2, "text-anchor": "middle", class: "gc-label",
      transform: "rotate(-90 14 " + (upper + H - lower) / 2 + ")" }, "goodput (%)"));
    svg.appendChild(axis);
    // the chosen interval
    if (x.T !== null && x.T >= low && x.T <= high) {
      svg.appendChild(el("line", { x1: px(x.T), y1: upper, x2: px(x.T), y2: H - lower, class: "gc-chosen" }));
      const onRight = px(x.T) < (left + W - right) / 2;
      svg.appendChild(el("text", { x: px(x.T) + (onRight ? 4 : -4), y: H - lower - 8, class: "gc-label",
        "text-anchor": onRight ? "start" : "end" }, "T = " + formatDuration(x.T)));
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

  function readAddress(form) {
    const query = new URLSearchParams(root.location.search);
    const any = FIELDS.some((key) => query.has(key));
    for (const key of FIELDS) {
      form.elements[key].value = any ? (query.get(key) || "") : (START[key] || "");
    }
    if (FIELDS.slice(6).some((key) => form.elements[key].value !== "")) {
      form.querySelector("details").open = true;
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

  // The inputs as a complete params.yml for `goodput plan --params` (see the page for the defaults).
  function paramsYaml(raw, x) {
    const value = (key) => pythonStrip(raw[key]);
    const defaults = K.file_defaults;
    const lines = ["# Inputs written by the goodput book's calculator page; read with: goodput plan --params params.yml"];
    lines.push("gpus: " + (x.gpus !== null ? value("gpus") : defaults.gpus +
      "  # not given: the worked example's; with M given directly it only counts capacity"));
    lines.push(x.mtbi !== null ? "mtbi: " + value("mtbi") : "rate_per_gpu_hour: " + value("rate_per_gpu_hour"));
    lines.push("checkpoint_cost: " + value("checkpoint_cost"));
    lines.push("slow_checkpoint_cost: " + value("checkpoint_cost") + "  # not asked by the calculator: the checkpoint cost");
    lines.push("restart: " + value("restart"));
    lines.push("price_per_gpu_hour: " + defaults.price_per_gpu_hour + "  # not asked: the worked example's");
    lines.push("month: " + defaults.month + "  # not asked: the worked example's");
    if (raw.drain !== undefined && value("drain") !== "") { lines.push("drain: " + value("drain")); }
    if (x.tiers) {
      const parts = ["cost: " + value("persistent_cost")];
      if (value("persistent_restart") !== "") { parts.push("restart: " + value("persistent_restart")); }
      if (value("persistent_every") !== "") { parts.push("every: " + value("persistent_every")); }
      lines.push("persistent: {" + parts.join(", ") + "}");
      lines.push("fast_survives: " + value("fast_survives"));
    }
    if (x.T !== null) {
      lines.push("# The interval evaluated is not a key of this file: goodput plan --params params.yml --interval '" +
        value("interval") + "'");
    }
    return lines.join("\n") + "\n";
  }

  function start(container) {
    const form = container.querySelector("form");
    const button = container.querySelector("[data-role='download']");
    let current = null;
    const raw = () => {
      const out = {};
      for (const key of FIELDS) { out[key] = form.elements[key].value; }
      return out;
    };
    const update = () => {
      const typed = raw();
      writeAddress(typed);
      let checked = readInputs(typed);
      let result = null;
      if (checked.inputs) {
        result = compute(checked.inputs);
        if (result.errors) { checked = result; result = null; }
      }
      for (const key of FIELDS) {
        const message = checked.errors && checked.errors[key];
        const alert = container.querySelector("#gc-" + key + "-error");
        alert.textContent = message ? "Expected " + message + "." : "";
        form.elements[key].setAttribute("aria-invalid", message ? "true" : "false");
      }
      current = result ? { raw: typed, inputs: checked.inputs } : null;
      button.disabled = !result;
      render(container, result);
      container.setAttribute("data-ready", "true");
    };
    form.addEventListener("input", update);
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
    readAddress(form);
    update();
  }

  root.goodputCalculator = {
    parseDuration: parseDuration, finite: finite, positive: positive, whole: whole, share: share,
    formatDuration: formatDuration, formatG: formatG, percent: percent, readInputs: readInputs, compute: compute,
    paramsYaml: paramsYaml, InputError: InputError,
  };

  if (typeof document !== "undefined") {
    const boot = () => {
      const container = document.getElementById("goodput-calculator");
      if (container) { start(container); }
    };
    if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", boot); } else { boot(); }
  }
})(globalThis);
