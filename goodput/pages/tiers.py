"""The chapter "Checkpoints that are not yet safe" (book/tiers.md): its numbers and sentences.

A checkpoint written locally first and drained to shared storage afterwards is
fast because it is not yet safe: until the drain ends, an interruption that takes
the node takes the checkpoint with it. This module works out what that does to the
brief's worked example (always from the shipped worked example, labelled as such),
to the fleet the book is built for (from its inputs file), and when a fast tier
beside a persistent one pays. The numbers come from :mod:`goodput.tiers` (the exact
model, which every recommendation uses; first order where the chapter derives it or
reproduces the brief, labelled) and :func:`goodput.symbolic.derive_tiers`; the
interruption counts from :mod:`goodput.sources`.

Assumptions the chapter states as such are module constants: the drain of the
brief's local-first path (:data:`WORKED_DRAIN`), the share a copy on a peer
survives (:data:`PEER_SURVIVES`) and the slowdown of training during a drain
(:data:`DRAIN_SLOWDOWN`). Which of Llama 3's root causes lose a node's local copy
is data (:data:`LOSES_LOCAL_COPY`), argued component by component.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from goodput import exact, model, sources
from goodput.params import Params, load_params
from goodput.plan import headline, plan_for
from goodput.report import money, percent, points
from goodput.tiers import (
    TierLosses,
    Tiers,
    best_every,
    exact_losses,
    exact_optimal_interval,
    fast_tier_pays_from,
    first_order_every,
    first_order_losses,
    first_order_optimal_interval,
)
from goodput.units import format_duration

if TYPE_CHECKING:
    import pandas as pd

#: The drain of the brief's local-first path, minutes: an assumption (the brief gives none).
WORKED_DRAIN = 5.0
#: Share of interruptions a fast copy held on a peer node as well survives: an assumption for illustration
#: (Table 5 does not say how many nodes each interruption took).
PEER_SURVIVES = 0.95
#: How much slower training runs while a drain competes with it for network and storage: an illustration.
DRAIN_SLOWDOWN = 0.10
#: Persistent-to-fast cost ratios C_p/C the chapter's figure draws.
FIGURE_RATIOS = (2.0, 5.0, 10.0, 30.0)

#: Llama 3's root causes (Table 5), and whether each loses the node's local copy of a checkpoint, with why.
#: The rule: a copy in a node's host memory or on its local disk is lost when the usual response to the
#: interruption takes the node out of the job (repair, replacement by a spare, reboot, power loss), because the
#: restart runs without it; it survives when only the processes die and the node rejoins with its memory intact.
LOSES_LOCAL_COPY: dict[str, tuple[bool, str]] = {
    "Faulty GPU": (True, "the node leaves the job for repair and the restart runs on a spare"),
    "GPU HBM3 memory": (True, "an uncorrectable memory error takes the GPU, and so the node, out of the job"),
    "Software bug": (False, "the processes die; the node, its memory and its disk stay in the job"),
    "Network switch/cable": (False, ("the nodes are cut off the training network, not lost: their copies stay and "
                                     "can still be read over the storage network")),
    "Host maintenance": (True, "the host is taken out and rebooted, which clears its memory"),
    "GPU SRAM memory": (True, "as for HBM: the GPU, and so the node, leaves the job"),
    "GPU system processor": (True, "the GPU needs a reset or the node a reboot; the node leaves the job"),
    "NIC": (True, "the node can no longer reach its peers and is replaced"),
    "NCCL watchdog timeouts": (False, "the watchdog ends the processes; the nodes stay (the cause is unknown)"),
    "Silent data corruption": (True, "the node is excluded, and its recent state, local copy included, is suspect"),
    "GPU thermal interface + sensor": (True, "the node is taken out for repair"),
    "SSD": (True, "the local disk is the copy"),
    "Power supply": (True, "the node loses power, and host memory with it"),
    "Server chassis": (True, "the whole server goes"),
    "IO expansion board": (True, "the node leaves the job for repair"),
    "Dependency": (False, "a dependency fails; the nodes stay"),
    "CPU": (True, "the host goes down"),
    "System memory": (True, "host memory is where the copy is"),
}


# --------------------------------------------------------------------------- which interruptions take the copy


def lost_share(loses: dict[str, bool] | None = None) -> float:
    """The share of Llama 3's unexpected interruptions that lose a node's local copy, from Table 5's counts.

    Parameters
    ----------
    loses : dict of str to bool, optional
        Component -> whether it loses the copy (default: :data:`LOSES_LOCAL_COPY`).

    Returns
    -------
    float
        Counts of the components that lose it over all 419 counts.
    """
    loses = loses or {k: v for k, (v, _) in LOSES_LOCAL_COPY.items()}
    total = sum(n for _, _, n in sources.LLAMA3_ROOT_CAUSES)
    return sum(n for component, _, n in sources.LLAMA3_ROOT_CAUSES if loses[component]) / total


def _alternative(change: dict[str, bool]) -> float:
    base = {k: v for k, (v, _) in LOSES_LOCAL_COPY.items()}
    return lost_share({**base, **change})


def root_cause_table() -> pd.DataFrame:
    """Table 5 of the Llama 3 paper with the chapter's decision for each component.

    Returns
    -------
    pandas.DataFrame
        Columns "component", "category (paper)", "count", "share", "loses the copy" (yes/no) and
        "why", largest count first.
    """
    table = sources.llama3_root_causes()
    table["loses the copy"] = ["yes" if LOSES_LOCAL_COPY[c][0] else "no" for c in table["component"]]
    table["why"] = [LOSES_LOCAL_COPY[c][1] for c in table["component"]]
    table = table.rename(columns={"category": "category (paper)"})
    return table.sort_values("count", ascending=False, kind="stable", ignore_index=True)


def categorization() -> dict[str, str]:
    """The counts behind the share, and what the two judgment calls would change, as words.

    Returns
    -------
    dict of str to str
        ``lost_count``, ``kept_count``, ``total_count``, ``lost_share``, ``kept_share``; ``gpu_count`` and
        ``gpu_share`` (GPU components, all counted as losing the copy); ``network_count``; the shares if the
        network failures also lost it (``with_network_share``) or if GPU failures did not
        (``without_gpu_share``); ``maintenance_count``.
    """
    rows = sources.LLAMA3_ROOT_CAUSES
    total = sum(n for *_, n in rows)
    lost = sum(n for c, _, n in rows if LOSES_LOCAL_COPY[c][0])
    gpu = [c for c, category, _ in rows if category == "GPU"]
    gpu_count = sum(n for c, category, n in rows if category == "GPU")
    network = sum(n for c, category, n in rows if category == "Network")
    return {
        "lost_count": f"{lost:,}",
        "kept_count": f"{total - lost:,}",
        "total_count": f"{total:,}",
        "lost_share": percent(lost / total),
        "kept_share": percent(1 - lost / total),
        "gpu_count": f"{gpu_count:,}",
        "gpu_share": percent(gpu_count / total),
        "network_count": f"{network:,}",
        "maintenance_count": f"{sum(n for c, _, n in rows if c == 'Host maintenance'):,}",
        "with_network_share": percent(_alternative({"Network switch/cable": True})),
        "without_gpu_share": percent(_alternative(dict.fromkeys(gpu, False))),
    }


# --------------------------------------------------------------------------- schemes


def local_first(checkpoint_cost: float, restart: float, drain: float, survives: float) -> Tiers:
    """A local-first checkpoint drained every time: a snapshot of C to host memory, durable D later.

    Every checkpoint is persistent (n = 1) at the fast cost (C_p = C) and restart (R_p = R); an interruption
    inside the drain that leaves the node (a share `survives` of them) restarts from the local copy, one that
    takes the node goes back to the previous drained checkpoint.

    Parameters
    ----------
    checkpoint_cost, restart, drain : float
        C, R and D in minutes.
    survives : float
        s, the share of interruptions that leave the local copy.

    Returns
    -------
    Tiers
        The scheme; with `survives` = 0 it is one tier with a drain.
    """
    if survives == 0.0:
        return Tiers(checkpoint_cost, restart, drain=drain)
    return Tiers(checkpoint_cost, restart, drain, checkpoint_cost, restart, survives, 1)


@dataclass(frozen=True)
class Outcome:
    """A scheme at its best cadence and interval, by the exact model and by first order.

    Parameters
    ----------
    scheme : Tiers
        The scheme at the exact model's best n (or its own n when fixed).
    exact : TierLosses
        The exact losses at the exact optimum interval.
    first_order : TierLosses
        The first-order losses at first order's own best n and interval.
    """

    scheme: Tiers
    exact: TierLosses
    first_order: TierLosses


def outcome(tiers: Tiers, mtbi: float, *, choose_every: bool = True) -> Outcome:
    """Each model at its own best cadence (when `choose_every`) and interval.

    Parameters
    ----------
    tiers : Tiers
        The scheme.
    mtbi : float
        M in minutes.
    choose_every : bool, optional
        Choose n (:func:`goodput.tiers.best_every`); otherwise keep the scheme's n.

    Returns
    -------
    Outcome
        Both models' losses.
    """
    scheme = best_every(tiers, mtbi) if choose_every else tiers
    first = best_every(tiers, mtbi, which="first-order") if choose_every else tiers
    return Outcome(
        scheme=scheme,
        exact=exact_losses(scheme, mtbi, exact_optimal_interval(scheme, mtbi)),
        first_order=first_order_losses(first, mtbi, first_order_optimal_interval(first, mtbi)),
    )


def _capacity(difference: float, params: Params) -> str:
    return money(model.capacity_per_month(difference, params.gpus, params.price_per_gpu_hour, params.month))


def _share(x: float) -> str:
    """A share as the inputs file would give it: "70%" for 0.7, "23.4%" for 0.234."""
    return percent(x, 0) if abs(100 * x - round(100 * x)) < 1e-9 else percent(x)


def _seconds_or_less(minutes: float) -> str:
    return "less than a second" if abs(minutes) * 60.0 < 1.0 else format_duration(abs(minutes))


# --------------------------------------------------------------------------- the brief's worked example


def _worked() -> tuple[Params, float, float]:
    """The worked example's inputs, the share of interruptions that lose the local copy, and the share that leave it."""
    q = lost_share()
    return load_params(), q, 1.0 - q


def worked_example() -> dict[str, str]:
    """The brief's worked example with its local-first checkpoint drained for :data:`WORKED_DRAIN`.

    Always the shipped worked example (:func:`goodput.params.load_params` with no file), whatever the book is
    built from.

    Returns
    -------
    dict of str to str
        Keys ``wx_*``: the inputs (``wx_cost``, ``wx_slow_cost``, ``wx_restart``, ``wx_mtbi``, ``wx_drain``,
        ``wx_lost_share``, ``wx_kept_share``); first order (``wx_fo_*``): the brief's goodput, interval,
        12.8 points and $3.8M and what the drain leaves of them, the drain's cost D/M (every interruption
        losing the copy) and qD/M (the node-taking ones); the same by the exact model (``wx_ex_*``); how far
        the drain moves the exact interval, and the drain that would set it.
    """
    params, q, s = _worked()
    c, m, r, d = params.checkpoint_cost, params.mtbi, params.restart, WORKED_DRAIN
    fo, ex = headline(params, "first-order"), headline(params)
    drained = outcome(local_first(c, r, d, s), m, choose_every=False)
    every = outcome(local_first(c, r, d, 0.0), m, choose_every=False)
    g_fo, g_ex = drained.first_order.goodput, drained.exact.goodput
    shift = drained.exact.interval - float(exact.exact_optimal_interval(c, m))
    return {
        "wx_gpus": f"{params.gpus:,}",
        "wx_cost": format_duration(c),
        "wx_slow_cost": format_duration(params.slow_checkpoint_cost),
        "wx_restart": format_duration(r),
        "wx_mtbi": format_duration(m),
        "wx_drain": format_duration(d),
        "wx_lost_share": percent(q),
        "wx_kept_share": percent(s),
        "wx_fo_interval": format_duration(fo["interval"]),
        "wx_fo_goodput": percent(fo["goodput"]),
        "wx_fo_slow_goodput": percent(fo["slow_goodput"]),
        "wx_fo_points": points(fo["points"]),
        "wx_fo_capacity": money(fo["capacity"]),
        "wx_fo_drain_all": points(d / m),
        "wx_fo_drain_all_goodput": percent(every.first_order.goodput),
        "wx_fo_drain": points(q * d / m),
        "wx_fo_drain_capacity": _capacity(q * d / m, params),
        "wx_fo_goodput_drained": percent(g_fo),
        "wx_fo_points_drained": points(g_fo - fo["slow_goodput"]),
        "wx_fo_capacity_drained": _capacity(g_fo - fo["slow_goodput"], params),
        "wx_ex_interval": format_duration(ex["interval"]),
        "wx_ex_goodput": percent(ex["goodput"]),
        "wx_ex_slow_goodput": percent(ex["slow_goodput"]),
        "wx_ex_points": points(ex["points"]),
        "wx_ex_capacity": money(ex["capacity"]),
        "wx_ex_drain_factor": f"{math.exp(-d / m):.4f}",
        "wx_ex_drain_all": points(ex["goodput"] - every.exact.goodput),
        "wx_ex_drain_all_goodput": percent(every.exact.goodput),
        "wx_ex_drain": points(ex["goodput"] - g_ex),
        "wx_ex_drain_capacity": _capacity(ex["goodput"] - g_ex, params),
        "wx_ex_goodput_drained": percent(g_ex),
        "wx_ex_points_drained": points(g_ex - ex["slow_goodput"]),
        "wx_ex_capacity_drained": _capacity(g_ex - ex["slow_goodput"], params),
        "wx_ex_interval_drained": format_duration(drained.exact.interval),
        "wx_ex_interval_shift": _seconds_or_less(shift),
        "wx_drain_binds": format_duration(ex["interval"]),
    }


def worked_schemes() -> pd.DataFrame:
    """The worked example's checkpoint schemes side by side, each model at its own best cadence and interval.

    Returns
    -------
    pandas.DataFrame
        One row per scheme: the brief's 1-minute checkpoint as if safe at once; drained for
        :data:`WORKED_DRAIN` with every interruption losing the copy; with only the node-taking ones losing it;
        with a copy on a peer (:data:`PEER_SURVIVES`); a fast copy on a peer beside the brief's synchronous
        write every n-th checkpoint; and the synchronous write alone. Columns: "scheme", "s", "n" (every n-th
        checkpoint persistent; "-" for one immediately safe checkpoint), "T (exact)", "goodput, first order",
        "goodput, exact", "above the sync write" (exact points) and "a month" (the capacity those points are
        worth, exact, at list price).
    """
    import pandas as pd

    params, _, s = _worked()
    c, cs, m, r, d = params.checkpoint_cost, params.slow_checkpoint_cost, params.mtbi, params.restart, WORKED_DRAIN
    drain, slow = format_duration(d), format_duration(cs)
    cases = [
        (f"{format_duration(c)} checkpoint, safe at once (the brief)", Tiers(c, r), "-"),
        (f"drained in {drain}; any interruption loses it", local_first(c, r, d, 0.0), percent(0.0, 0)),
        ("drained; only node-taking ones lose it", local_first(c, r, d, s), percent(s)),
        ("drained; a peer holds a copy too", local_first(c, r, d, PEER_SURVIVES), percent(PEER_SURVIVES, 0)),
        (f"peer copy, {slow} synchronous write every n-th", Tiers(c, r, 0.0, cs, r, PEER_SURVIVES),
         percent(PEER_SURVIVES, 0)),
    ]
    reference = (f"{slow} synchronous write, safe at once (the brief)", Tiers(cs, r), "-")
    sync = outcome(Tiers(cs, r), m).exact.goodput
    rows = []
    for name, scheme, share in [*cases, reference]:
        o = outcome(scheme, m)
        above = name != reference[0]
        rows.append({
            "scheme": name,
            "s": share,
            "n": "-" if o.scheme.single_level else str(o.scheme.every),
            "T (exact)": format_duration(o.exact.interval),
            "goodput, first order": percent(o.first_order.goodput),
            "goodput, exact": percent(o.exact.goodput),
            "above the sync write": points(o.exact.goodput - sync) if above else "-",
            "a month": _capacity(o.exact.goodput - sync, params) if above else "-",
        })
    return pd.DataFrame(rows)


def fast_tier() -> dict[str, str]:
    """When a fast tier beside a persistent one pays, for the worked example (keys ``ft_*``).

    The fast tier is the local copy in host memory, never drained; the persistent tier is the brief's
    synchronous write to shared storage (durable at once, restarting in R). With the copy on the node alone
    it survives the share of Llama 3's interruptions that leave the node; with a copy on a peer,
    :data:`PEER_SURVIVES` (an assumption).

    Returns
    -------
    dict of str to str
        ``ft_ratio`` (C_p/C), ``ft_threshold`` (the least s at which n >= 2 is best, exact),
        ``ft_local_s``/``ft_local_n``/``ft_local_verdict`` (a copy on the node alone), ``ft_peer_s``,
        ``ft_peer_n`` (exact best n), ``ft_peer_n_first_order`` (n*, continuous), ``ft_peer_interval``,
        ``ft_peer_interval_first_order`` (sqrt(2CM/s)), ``ft_peer_period_first_order``
        (sqrt(2 (C_p - C) M / (1 - s))), ``ft_peer_goodput``, ``ft_sync_goodput``, ``ft_gain``,
        ``ft_gain_capacity``, ``ft_drained_peer_goodput`` (the drained local-first path with a peer copy)
        and ``ft_drained_vs_tiers``.
    """
    params, _, s = _worked()
    c, cs, m, r = params.checkpoint_cost, params.slow_checkpoint_cost, params.mtbi, params.restart
    local = outcome(Tiers(c, r, 0.0, cs, r, s), m)
    peer_scheme = Tiers(c, r, 0.0, cs, r, PEER_SURVIVES)
    peer = outcome(peer_scheme, m)
    sync = outcome(peer_scheme.with_every(1), m, choose_every=False)
    drained = outcome(local_first(c, r, WORKED_DRAIN, PEER_SURVIVES), m, choose_every=False)
    threshold = fast_tier_pays_from(peer_scheme, m)
    n_star = first_order_every(peer_scheme)
    return {
        "ft_ratio": f"{cs / c:g}",
        "ft_threshold": percent(threshold if threshold is not None else math.nan, 0),
        "ft_local_s": percent(s),
        "ft_local_n": str(local.scheme.every),
        "ft_local_verdict": ("does not pay: every checkpoint should be the persistent one"
                             if local.scheme.every == 1 else f"pays: {_ordinal(local.scheme.every)} checkpoint persistent"),
        "ft_peer_s": percent(PEER_SURVIVES, 0),
        "ft_peer_n": str(peer.scheme.every),
        "ft_peer_n_first_order": f"{n_star:.1f}",
        "ft_peer_interval": format_duration(peer.exact.interval),
        "ft_peer_interval_first_order": format_duration(math.sqrt(2 * c * m / PEER_SURVIVES)),
        "ft_peer_period_first_order": format_duration(math.sqrt(2 * (cs - c) * m / (1 - PEER_SURVIVES))),
        "ft_peer_goodput": percent(peer.exact.goodput),
        "ft_sync_goodput": percent(sync.exact.goodput),
        "ft_gain": points(peer.exact.goodput - sync.exact.goodput),
        "ft_gain_capacity": _capacity(peer.exact.goodput - sync.exact.goodput, params),
        "ft_drained_peer_goodput": percent(drained.exact.goodput),
        "ft_drained_vs_tiers": points(drained.exact.goodput - peer.exact.goodput),
    }


def peers() -> dict[str, str]:
    """What a copy on a peer does to the worked example's drained local-first path (keys ``peer_*``).

    Returns
    -------
    dict of str to str
        ``peer_s``, ``peer_drain`` (the exact points the drain costs with the peer copy),
        ``peer_goodput`` (exact), ``peer_drain_first_order`` ((1 - s) D/M) and ``peer_saved``
        (points the peer copy wins back against the copy on the node alone, exact).
    """
    params, _, s = _worked()
    c, m, r, d = params.checkpoint_cost, params.mtbi, params.restart, WORKED_DRAIN
    safe = float(exact.exact_goodput(c, m, r))
    alone = outcome(local_first(c, r, d, s), m, choose_every=False).exact.goodput
    peer = outcome(local_first(c, r, d, PEER_SURVIVES), m, choose_every=False).exact.goodput
    return {
        "peer_s": percent(PEER_SURVIVES, 0),
        "peer_drain": points(safe - peer),
        "peer_goodput": percent(peer),
        "peer_drain_first_order": points((1 - PEER_SURVIVES) * d / m),
        "peer_saved": points(peer - alone),
    }


def limits() -> dict[str, str]:
    """Storage contention during drains, for the worked example (keys ``lim_*``).

    If training runs :data:`DRAIN_SLOWDOWN` slower for the D minutes of each drain, each checkpoint costs
    about C + slowdown x D of work rather than C: the model, which counts only the blocking snapshot,
    misses the difference.

    Returns
    -------
    dict of str to str
        ``lim_slowdown``, ``lim_extra`` (slowdown x D as a duration), ``lim_cost`` (the effective C),
        ``lim_goodput`` (exact, drained, with the effective C), ``lim_points`` (exact points lost against the
        drained path the model counts).
    """
    params, _, s = _worked()
    c, m, r, d = params.checkpoint_cost, params.mtbi, params.restart, WORKED_DRAIN
    counted = outcome(local_first(c, r, d, s), m, choose_every=False).exact.goodput
    extra = DRAIN_SLOWDOWN * d
    slowed = outcome(local_first(c + extra, r, d, s), m, choose_every=False).exact.goodput
    return {
        "lim_slowdown": percent(DRAIN_SLOWDOWN, 0),
        "lim_extra": format_duration(extra),
        "lim_cost": format_duration(c + extra),
        "lim_goodput": percent(slowed),
        "lim_points": points(counted - slowed),
    }


# --------------------------------------------------------------------------- the derivation, for display


def _latex(*lines: str) -> str:
    body = r" \\[4pt] ".join(lines)
    for opening in ("(", "{"):  # SymPy writes C_p - C as -C + C_p
        body = body.replace(opening + "- C + C_{p}", opening + "C_{p} - C")
    return r"\begin{aligned}" + body + r"\end{aligned}"


def derivation_interval() -> str:
    """The loss's derivative in T, the root T*(n), the curvature there and P(n), as one LaTeX block."""
    import sympy as sp

    from goodput.symbolic import derive_tiers

    d = derive_tiers()
    return _latex(
        r"\frac{\partial L}{\partial T} &= " + sp.latex(d.plain(d.loss_derivative)),
        r"\frac{\partial L}{\partial T} = 0 \;&\Rightarrow\; T^{*}(n) = " + sp.latex(d.plain(d.interval)),
        r"\left.\frac{\partial^2 L}{\partial T^2}\right|_{T^{*}(n)} &= "
        + sp.latex(d.plain(d.interval_curvature)) + r" > 0",
        r"P(n) = 2Mab &= " + sp.latex(d.plain(2 * d.symbols["M"] * d.interval_terms[0] * d.interval_terms[1])),
        r"\left(L(T^{*}(n), n) - \text{rest}\right)^2 - \frac{2P(n)}{M} &= " + sp.latex(d.loss_at_interval_check),
    )


def derivation_cadence() -> str:
    """dP/dn, its root n*, the curvature, P(n*) and the two Young-like intervals at n*, as one LaTeX block."""
    import sympy as sp

    from goodput.symbolic import derive_tiers

    d = derive_tiers()
    sym = d.symbols
    c, cp, s = sym["C"], sym["C_p_symbol"], sym["s"]
    young_sum = sp.sqrt(s * c) + sp.sqrt((1 - s) * (cp - c))
    return _latex(
        r"\frac{dP}{dn} &= " + sp.latex(d.plain(sp.simplify(d.cadence_derivative))),
        r"\frac{dP}{dn} = 0 \;&\Rightarrow\; n^{*} = " + sp.latex(d.plain(d.every)),
        r"\left.\frac{d^2 P}{dn^2}\right|_{n^{*}} &= " + sp.latex(d.plain(d.cadence_curvature)) + r" > 0",
        r"P(n^{*}) - \left(" + sp.latex(young_sum) + r"\right)^2 &= " + sp.latex(d.cadence_minimum_check),
        r"T^{*}(n^{*})^2 \,\frac{s}{2CM} &= " + sp.latex(d.interval_at_every_check),
        r"\left(n^{*}\,T^{*}(n^{*})\right)^2 \frac{1 - s}{2(C_p - C)M} &= " + sp.latex(d.persistent_period_check),
    )


def derivation_reductions() -> str:
    """The one-tier reduction and the drain's exact factor, its series and its effect on the interval (LaTeX)."""
    import sympy as sp

    from goodput.symbolic import derive_tiers

    d = derive_tiers()
    return _latex(
        r"L\big|_{C_p = C,\ s = 0,\ n = 1,\ R_p = R} &= " + sp.latex(d.one_tier_loss),
        r"T^{*}(1)\big|_{C_p = C,\ s = 0} &= " + sp.latex(d.one_tier_interval),
        r"1 - e^{-D/M} &= " + sp.latex(d.drain_cost_series, order="rev-lex") + r" + \dots",
        r"\frac{\partial}{\partial T} \ln\!\left(G\, e^{-D/M}\right) - \frac{\partial}{\partial T} \ln G &= "
        + sp.latex(d.drain_interval_shift),
    )


# --------------------------------------------------------------------------- the fleet the book is built for


def same_as_worked_example(params: Params) -> bool:
    """Whether `params` are the worked example's inputs (every number a chapter uses the same)."""
    w = load_params()
    keys = ("gpus", "mtbi", "checkpoint_cost", "slow_checkpoint_cost", "restart", "price_per_gpu_hour", "month",
            "drain", "persistent_cost", "persistent_restart", "persistent_every", "fast_survives")
    return all(getattr(params, k) == getattr(w, k) for k in keys)


def fleet_tiers(params: Params) -> Tiers | None:
    """The checkpoint scheme an inputs file describes, or ``None`` when it gives no drain and no persistent tier.

    A drain alone is one tier with a drain (every interruption inside it loses the checkpoint). A persistent
    tier comes with the share the fast tier survives; its cadence n is the file's, or 1 here when the file
    leaves it to the plan (:func:`fleet` chooses it).

    Parameters
    ----------
    params : Params
        The inputs.

    Returns
    -------
    Tiers or None
        The scheme.
    """
    if not params.tiered:
        return None
    if params.persistent_cost is None:
        return Tiers(params.checkpoint_cost, params.restart, drain=params.drain)
    return Tiers(params.checkpoint_cost, params.restart, params.drain, params.persistent_cost,
                 params.persistent_restart, params.fast_survives or 0.0, params.persistent_every or 1)


@dataclass(frozen=True)
class FleetNumbers:
    """A tiered fleet's plan and what each part of its scheme costs or gains (exact unless named).

    Parameters
    ----------
    plan : Outcome
        The fleet's scheme at its best (or given) cadence and interval: the plan every page quotes
        (:func:`goodput.plan.plan_for`), with first order at its own best cadence and interval beside it.
    every_given : bool
        Whether the inputs file fixed n.
    safe : float
        Exact single-level goodput at C and R: every checkpoint safe at once.
    without_drain : float
        Goodput of the same scheme with a persistent checkpoint durable at once (best n again).
    all_persistent : float or None
        Goodput with every checkpoint persistent (n = 1) at its best interval; ``None`` for one tier.
    all_persistent_interval : float or None
        That interval, minutes.
    threshold : float or None
        The least s at which fast checkpoints pay (exact); ``None`` for one tier or C_p = C.
    drain_binds : bool
        Whether the drain sets the interval (the optimum would be shorter than D).
    """

    plan: Outcome
    every_given: bool
    safe: float
    without_drain: float
    all_persistent: float | None
    all_persistent_interval: float | None
    threshold: float | None
    drain_binds: bool


def _recommended(params: Params) -> Outcome:
    """The fleet's plan as every page quotes it (:func:`goodput.plan.plan_for`, exact), with first order beside it."""
    exact_plan, first_plan = plan_for(params), plan_for(params, which="first-order")
    if not (exact_plan.tiers and isinstance(exact_plan.losses, TierLosses) and isinstance(first_plan.losses, TierLosses)):
        raise ValueError(f"{params.source}: no drain or persistent tier to plan")  # pragma: no cover - callers check
    return Outcome(scheme=exact_plan.tiers, exact=exact_plan.losses, first_order=first_plan.losses)


def fleet_numbers(params: Params) -> FleetNumbers | None:
    """The numbers of :func:`fleet` for a fleet whose inputs give a drain or a persistent tier.

    Parameters
    ----------
    params : Params
        The inputs.

    Returns
    -------
    FleetNumbers or None
        ``None`` when the inputs describe no drain and no persistent tier.
    """
    tiers = fleet_tiers(params)
    if tiers is None:
        return None
    m = params.mtbi
    given = params.persistent_every is not None
    plan = _recommended(params)
    no_drain = Tiers(tiers.checkpoint_cost, tiers.restart, 0.0, tiers.persistent_cost, tiers.persistent_restart,
                     tiers.fast_survives, tiers.every)
    without = outcome(no_drain, m, choose_every=not given).exact.goodput
    all_persistent = all_interval = None
    if not tiers.one_tier:
        single = outcome(tiers.with_every(1), m, choose_every=False)
        all_persistent, all_interval = single.exact.goodput, single.exact.interval
    free = Tiers(tiers.checkpoint_cost, tiers.restart, 0.0, tiers.persistent_cost, tiers.persistent_restart,
                 tiers.fast_survives, plan.scheme.every)
    binds = tiers.drain > 0 and exact_optimal_interval(free, m) < tiers.drain
    return FleetNumbers(
        plan=plan,
        every_given=given,
        safe=float(exact.exact_goodput(params.checkpoint_cost, m, params.restart)),
        without_drain=without,
        all_persistent=all_persistent,
        all_persistent_interval=all_interval,
        threshold=fast_tier_pays_from(tiers, m) if not tiers.one_tier else None,
        drain_binds=binds,
    )


def _ordinal(n: int) -> str:
    if n == 1:
        return "every"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"every {n}{suffix}"


def fleet(params: Params) -> str:
    """The section on the fleet the book is built for, as Markdown paragraphs.

    Four cases: the worked example's own inputs (the numbers above are the fleet's); inputs with no drain
    and no persistent tier (what a drain of the brief's size would cost, labelled as an illustration);
    a drain alone; a drain and a persistent tier.

    Parameters
    ----------
    params : Params
        The inputs the book is built from.

    Returns
    -------
    str
        Markdown, every number from the inputs.
    """
    m, c, r = params.mtbi, params.checkpoint_cost, params.restart
    if same_as_worked_example(params):
        return ("This book is built from the brief's worked example, so the numbers above are this fleet's. "
                "An inputs file that gives a drain, a persistent tier and the share of interruptions the fast "
                "copy survives shows its own here.")
    numbers = fleet_numbers(params)
    if numbers is None:
        q = lost_share()
        safe = float(exact.exact_goodput(c, m, r))
        drained = outcome(local_first(c, r, WORKED_DRAIN, 1 - q), m, choose_every=False)
        cost = safe - drained.exact.goodput
        return (
            f"The inputs file this book is built from ({params.source}) gives no drain and no persistent tier, "
            f"so every chapter treats each {format_duration(c)} checkpoint as safe the moment its snapshot ends. "
            f"**As an illustration, not a measurement of this fleet:** if that checkpoint were durable only "
            f"{format_duration(WORKED_DRAIN)} later (the drain assumed for the brief) and {percent(q)} of this "
            f"fleet's interruptions took a node (Llama 3's share), the exact model's goodput would fall from "
            f"{percent(safe)} to {percent(drained.exact.goodput)}: {points(cost)}, worth "
            f"{_capacity(cost, params)} a month of this fleet's {params.gpus:,} GPUs at list price "
            f"(first order: {points(q * WORKED_DRAIN / m)}, the share times D/M). The interval stays "
            f"{format_duration(drained.exact.interval)}. To see this fleet's own numbers, give its drain, and "
            f"the share of interruptions its fast copy survives, in the inputs file."
        )
    plan = numbers.plan
    t = plan.scheme
    ex, fo = plan.exact, plan.first_order
    lines = []
    if t.one_tier:
        lines.append(
            f"The inputs file ({params.source}) gives a drain of {format_duration(t.drain)} and no persistent "
            f"tier: every interruption inside a drain loses the checkpoint still draining (the file does not say "
            f"that any interruption leaves it). By the exact model this fleet should checkpoint every "
            f"{format_duration(ex.interval)} of work, for a goodput of {percent(ex.goodput)}."
        )
        lines.append(
            f"The drain multiplies goodput by e^(-D/M) = {math.exp(-t.drain / m):.4f}: it costs "
            f"{points(numbers.safe - ex.goodput)} against checkpoints safe at once ({percent(numbers.safe)}), "
            f"worth {_capacity(numbers.safe - ex.goodput, params)} a month at list price; first order, "
            f"D/M = {points(t.drain / m)}."
        )
    else:
        s = t.fast_survives
        cadence = (f"with {_ordinal(t.every)} checkpoint persistent" if t.every > 1
                   else "with every checkpoint persistent")
        lines.append(
            f"The inputs file ({params.source}) gives two tiers: a fast checkpoint of {format_duration(c)} that "
            f"survives {_share(s)} of interruptions (restart {format_duration(r)}), and a persistent one of "
            f"{format_duration(t.cp)} (restart {format_duration(t.rp)})"
            + (f", durable {format_duration(t.drain)} after its snapshot" if t.drain > 0 else ", durable at once")
            + f". By the exact model this fleet should checkpoint every {format_duration(ex.interval)} of work "
            + cadence + ("" if not numbers.every_given else " (the cadence the file fixes)")
            + f": goodput {percent(ex.goodput)}. First order, at its own best cadence ({_ordinal(fo.every)}) and "
            f"interval ({format_duration(fo.interval)}), says {percent(fo.goodput)}."
        )
        if numbers.all_persistent is not None and numbers.all_persistent_interval is not None:
            gain = ex.goodput - numbers.all_persistent
            if t.every > 1:
                verdict = (f"The fast tier pays: every checkpoint persistent, at its own best interval of "
                           f"{format_duration(numbers.all_persistent_interval)}, would give "
                           f"{percent(numbers.all_persistent)}, so the fast checkpoints are worth {points(gain)} "
                           f"({_capacity(gain, params)} a month at list price).")
            else:
                verdict = ("The fast tier does not pay here: the best plan makes every checkpoint the persistent "
                           "one.")
            if numbers.threshold is not None:
                verdict += (f" With these costs, fast checkpoints pay once they survive more than "
                            f"{percent(numbers.threshold, 0)} of interruptions.")
            lines.append(verdict)
        if t.drain > 0:
            lines.append(
                f"The drain costs {points(numbers.without_drain - ex.goodput)}: with a persistent checkpoint "
                f"durable at once the same tiers would give {percent(numbers.without_drain)}"
                f" (first order: (1 - s) D/M = {points((1 - s) * t.drain / m)})."
            )
        lines.append(
            f"Were every {format_duration(c)} checkpoint safe at once and every restart {format_duration(r)}, the "
            f"exact model would give {percent(numbers.safe)}: checkpoints that are not yet safe cost this fleet "
            f"{points(numbers.safe - ex.goodput)}, worth {_capacity(numbers.safe - ex.goodput, params)} a month of "
            f"its {params.gpus:,} GPUs at list price."
        )
    if numbers.drain_binds:
        lines.append(f"The drain sets the interval here: the optimum would be shorter than "
                     f"{format_duration(t.drain)}, and a checkpoint cannot start before the last drain ends.")
    return "\n\n".join(lines)


def survival_figure(params: Params) -> dict[str, Any]:
    """The inputs of the chapter's figure (:func:`goodput.book.tier_figures.goodput_against_survival`).

    For a fleet with a persistent tier: its M, C, R, R_p and D, the ratios of :data:`FIGURE_RATIOS` and its
    own C_p/C, and a mark at its s. Otherwise the persistent tier is the inputs file's slow (synchronous)
    checkpoint, durable at once and restarting in R, with marks at Llama 3's share of interruptions that leave
    the node and at :data:`PEER_SURVIVES` (both labelled as such).

    Parameters
    ----------
    params : Params
        The inputs.

    Returns
    -------
    dict
        Keyword arguments for the figure function.
    """
    c = params.checkpoint_cost
    if params.persistent_cost is not None and params.persistent_cost > c:
        ratio = params.persistent_cost / c
        return {
            "mtbi": params.mtbi, "checkpoint_cost": c, "restart": params.restart,
            "persistent_restart": params.persistent_restart, "drain": params.drain,
            "ratios": tuple(sorted({*FIGURE_RATIOS, round(ratio, 6)})),
            "marks": {f"this fleet (s = {_share(params.fast_survives or 0.0)})": (round(ratio, 6),
                                                                                    params.fast_survives or 0.0)},
        }
    ratio = params.slow_checkpoint_cost / c
    return {
        "mtbi": params.mtbi, "checkpoint_cost": c, "restart": params.restart,
        "persistent_restart": params.restart, "drain": 0.0,
        "ratios": tuple(sorted({*FIGURE_RATIOS, round(ratio, 6)})),
        "marks": {
            f"copy on the node alone (Llama 3 share, {percent(1 - lost_share(), 0)})": (round(ratio, 6),
                                                                                       1 - lost_share()),
            f"copy on a peer too (assumed {percent(PEER_SURVIVES, 0)})": (round(ratio, 6), PEER_SURVIVES),
        },
    }


def inputs_snippet(params: Params) -> str:
    """How an inputs file describes a local-first checkpoint drained every time, as Markdown.

    Parameters
    ----------
    params : Params
        The inputs (for C).

    Returns
    -------
    str
        A sentence and a fenced YAML block: the drain, a persistent tier at the same cost written every time, and
        the share of interruptions that leave the local copy (Llama 3's, to be replaced by the fleet's own). When
        the inputs already give a drain or a persistent tier, one sentence saying where the numbers above came from.
    """
    if params.tiered:
        return ("The numbers above come from the drain, the tiers and the share of interruptions the fast copy "
                "survives as the inputs file gives them: measure them again when the storage path or the fleet "
                "changes.")
    c = format_duration(params.checkpoint_cost)
    return (
        "An inputs file describes a local-first path that drains every checkpoint like this, with its own "
        "checkpoint cost and, in place of Llama 3's share, the share of its own interruptions that leave the "
        "node:\n\n"
        "```yaml\n"
        f"drain: {format_duration(WORKED_DRAIN)}             # until the copy is on shared storage\n"
        f"persistent: {{cost: {c}, every: 1}}  # every checkpoint drained\n"
        f"fast_survives: {1 - lost_share():.3f}     # leave the node (Llama 3)\n"
        "```"
    )
