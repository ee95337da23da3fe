"""What a restart is made of, how many hot spares to hold, and recovery without going back to a checkpoint.

**The restart's parts.** A restart is detection, replacing the failed nodes, starting the processes and
the collective communication (a fixed part and a part per node), loading the checkpoint and warming
up; R is their sum (:class:`RestartParts`).

**Hot spares.** A share of the interruptions takes a node out for repair; a pool of c spare nodes
replaces it at once. Node-taking interruptions arrive at rate a/M (a the share, M the mean time
between interruptions) and each node is repaired in a mean time r, exponentially distributed. The
job runs while at most c nodes are in repair; a node-taking interruption that finds all c spares in
use (c nodes already in repair) waits for the first of the c + 1 repairs to end, r / (c + 1) on
average, and no interruption strikes a job that is waiting. The nodes in repair are then a birth and
death process on 0..c+1 whose stationary law is a truncated Poisson law of mean ρ = a r / M, and an
interruption (Poisson arrivals see time averages, over the states where the job runs) finds the
pool empty with the Erlang loss probability B(c, ρ). So the expected restart is

    R(c) = R_parts + a B(c, ρ) r / (c + 1),

with the limits R(∞) = R_parts and R(0) = R_parts + a r (every node-taking interruption waits for
its repair). Spares are GPUs that do not train: each spare node must win back more kept work than its
own g GPUs, so :func:`best_spares` maximizes the kept work net of the spares, goodput(R(c)) x N - c g
(N GPUs in the job, g per node), which at the fleet's price is the spares' worth in dollars.

**Recovery without rollback.** A share p of interruptions is recovered just in time (Gupta et al.,
EuroSys 2024): the data-parallel replicas still hold the state, so the job replays about one step
and pays a short recovery R_j, with no checkpoint load and no lost work. The others roll back to the
last checkpoint as before. Planned stops with notice, at a rate q, cost a durable checkpoint and the
restart from it, S_q minutes, but no lost work. :class:`Recovery` applies this to any checkpoint scheme
(one tier, or a drain and a persistent tier of :mod:`goodput.tiers`): rollback interruptions come at rate
(1 - p)/M over the job's running time and restarts (a failure during a restart starts it over), so the
scheme's own model is evaluated with M' = M / (1 - p) for M; the just-in-time recoveries and planned stops
are pauses that strike only while the job runs (computes, checkpoints or drains, not while it restarts),
π = p R_j / M + (q / 60) S_q per minute of running. With u the running share of the scheme at M' (one minus
its restart loss), wall time grows by the factor 1 + u π: every loss L becomes L / (1 + u π), the restart
loss (L_R + u π) / (1 + u π) and goodput G / (1 + u π). For one tier, u = e^{-R/M'} and the expected wall
time per segment of T minutes of work is

    (e^{x'} - 1) (M' e^{R/M'} + M' (p/M) R_j + M' q (C + R)),    M' = M / (1 - p),  x' = (T + C)/M',

so goodput is T divided by it; the optimum is the exact model's with M' for M (π multiplies the wall time
by a factor that does not depend on T), and to first order T* = sqrt(2 C M / (1 - p)). To first order the
scheme's losses at M' are taken as they are and π is added to the restart loss. Failures during a
just-in-time recovery or a planned stop are left out (they take seconds to minutes, against M of tens of
minutes).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, TypeVar

from goodput import model, validate
from goodput.exact import exact_losses, exact_optimal_interval
from goodput.tiers import Tiers

if TYPE_CHECKING:
    from goodput.model import Losses
    from goodput.tiers import TierLosses

#: A scheme's losses: one tier's (:class:`goodput.model.Losses`) or a drain's and tiers' (:class:`goodput.tiers.TierLosses`).
AnyLosses = TypeVar("AnyLosses", "Losses", "TierLosses")


@dataclass(frozen=True)
class RestartParts:
    """A restart, part by part, in minutes.

    Parameters
    ----------
    detect : float
        From the interruption to knowing the job must restart.
    replace : float
        Putting a healthy node in place of the failed one (from the spare pool; waits for repairs
        are counted apart, see :func:`spare_wait`).
    startup : float
        Starting the processes and the collective communication, the fixed part.
    startup_per_node : float
        The part of the start-up that grows with the job, per node.
    load : float
        Loading the checkpoint.
    warmup : float
        From the loaded checkpoint to the first step at full speed.
    nodes : int
        Nodes in the job (for the start-up per node).
    """

    detect: float = 0.0
    replace: float = 0.0
    startup: float = 0.0
    startup_per_node: float = 0.0
    load: float = 0.0
    warmup: float = 0.0
    nodes: int = 1

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name != "nodes":
                validate.non_negative(getattr(self, f.name), f.name)
        validate.whole(self.nodes, "nodes")
        if self.total <= 0.0:
            validate.positive(self.total, "restart", "parts that add up to more than zero minutes")

    @property
    def parts(self) -> dict[str, float]:
        """Each part in minutes, the start-up per node multiplied out: detect, replace, startup, load, warmup."""
        return {"detect": self.detect, "replace": self.replace,
                "startup": self.startup + self.startup_per_node * self.nodes, "load": self.load,
                "warmup": self.warmup}

    @property
    def total(self) -> float:
        """R, the sum of the parts, in minutes."""
        return sum(self.parts.values())

    @property
    def largest(self) -> str:
        """The name of the largest part."""
        parts = self.parts
        return max(parts, key=lambda name: parts[name])


@dataclass(frozen=True)
class Spares:
    """A pool of hot spare nodes.

    Parameters
    ----------
    nodes : int
        c, spare nodes held (zero or more).
    repair : float
        r, mean minutes to repair a node taken out.
    takes_node : float
        a, the share of interruptions that take a node out (0 to 1).
    """

    nodes: int
    repair: float
    takes_node: float

    def __post_init__(self) -> None:
        validate.whole(self.nodes, "spares.nodes", least=0)
        validate.positive(self.repair, "spares.repair")
        validate.share(self.takes_node, "spares.takes_node")

    def wait(self, mtbi: float) -> float:
        """The expected wait for a repair per interruption, minutes (:func:`spare_wait`)."""
        return spare_wait(self.nodes, mtbi, self.repair, self.takes_node)


def erlang_b(servers: int, load: float) -> float:
    """The Erlang loss probability B(c, ρ): the chance that c servers offered a load ρ are all busy.

    Computed by the stable recurrence B(0) = 1, B(k) = ρ B(k-1) / (k + ρ B(k-1)).

    Parameters
    ----------
    servers : int
        c, zero or more.
    load : float
        ρ, the offered load (arrival rate x mean holding time), zero or more.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> erlang_b(0, 0.3), round(erlang_b(1, 1.0), 3), round(erlang_b(5, 2.0), 4)
    (1.0, 0.5, 0.0367)
    """
    c = validate.whole(servers, "spares", least=0)
    rho = validate.non_negative(load, "load")
    b = 1.0
    for k in range(1, c + 1):
        b = rho * b / (k + rho * b)
    return b


def spare_wait(spares: int, mtbi: float, repair: float, takes_node: float) -> float:
    """The expected wait for a repair per interruption, in minutes: a B(c, ρ) r / (c + 1).

    Parameters
    ----------
    spares : int
        c, spare nodes in the pool.
    mtbi : float
        M, mean minutes between interruptions of the job.
    repair : float
        r, mean minutes to repair a node.
    takes_node : float
        a, the share of interruptions that take a node out.

    Returns
    -------
    float
        Minutes, zero or more.

    Examples
    --------
    >>> spare_wait(0, 60.0, 240.0, 0.5)
    120.0
    """
    m = validate.positive(mtbi, "mtbi")
    r = validate.positive(repair, "repair")
    a = validate.share(takes_node, "takes_node")
    c = validate.whole(spares, "spares", least=0)
    return a * erlang_b(c, a * r / m) * r / (c + 1)


@dataclass(frozen=True)
class Recovery:
    """Recovery without rollback and planned stops, applied to any checkpoint scheme (see the module docstring).

    Parameters
    ----------
    just_in_time : float, optional
        p, the share of unplanned interruptions recovered without going back to a checkpoint, in [0, 1).
    jit_recovery : float, optional
        R_j, minutes a just-in-time recovery costs (the replayed step included).
    planned_rate : float, optional
        q, planned stops with notice per hour, each costing S_q (a durable checkpoint and the restart from
        it, :attr:`goodput.tiers.Tiers.stop_cost`) but no lost work.

    Examples
    --------
    >>> x = Recovery(0.75, 0.5, 0.06)
    >>> x.rollback_mtbi(60.0), round(x.pauses(60.0, 6.0), 6)
    (240.0, 0.01225)
    """

    just_in_time: float = 0.0
    jit_recovery: float = 0.0
    planned_rate: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "just_in_time", validate.share(self.just_in_time, "just_in_time", open_high=True))
        object.__setattr__(self, "jit_recovery", validate.non_negative(self.jit_recovery, "jit_recovery"))
        object.__setattr__(self, "planned_rate", validate.non_negative(self.planned_rate, "planned_rate"))

    @property
    def active(self) -> bool:
        """Whether any interruption is recovered just in time or any stop is planned."""
        return self.just_in_time > 0.0 or self.planned_rate > 0.0

    def rollback_mtbi(self, mtbi: float) -> float:
        """M' = M / (1 - p): the mean running time between interruptions that roll back."""
        return mtbi / (1.0 - self.just_in_time)

    def pauses(self, mtbi: float, stop_cost: float) -> float:
        """π = p R_j / M + (q / 60) S_q: minutes of pauses per minute of running time."""
        return self.just_in_time * self.jit_recovery / mtbi + self.planned_rate / 60.0 * stop_cost

    def exact(self, base: AnyLosses, mtbi: float, stop_cost: float) -> AnyLosses:
        """The scheme's exact losses at M' (`base`) with the pauses: each loss / (1 + u π), the restart's with u π.

        Parameters
        ----------
        base : Losses or TierLosses
            The scheme's exact losses at :meth:`rollback_mtbi` (shares of wall time that sum with goodput to 1).
        mtbi : float
            M, minutes (every unplanned interruption counted).
        stop_cost : float
            S_q, minutes a planned stop costs.

        Returns
        -------
        Losses or TierLosses
            Of the same type as `base`; u = 1 - the base's restart loss is its running share.
        """
        pi = self.pauses(mtbi, stop_cost)
        paused = (1.0 - base.restart_loss) * pi
        grow = 1.0 + paused
        shares = {f.name: getattr(base, f.name) / grow for f in dataclasses.fields(base)
                  if f.name not in ("interval", "every", "restart_loss")}
        return dataclasses.replace(base, restart_loss=(base.restart_loss + paused) / grow, **shares)

    def first_order(self, base: AnyLosses, mtbi: float, stop_cost: float) -> AnyLosses:
        """The scheme's first-order losses at M' (`base`) with π added to the restart loss."""
        return dataclasses.replace(base, restart_loss=base.restart_loss + self.pauses(mtbi, stop_cost))


def recovery_goodput(checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None, *,
                     just_in_time: float = 0.0, jit_recovery: float = 0.0, planned_rate: float = 0.0) -> float:
    """Goodput with a share of interruptions recovered just in time and planned stops with notice.

    Parameters
    ----------
    checkpoint_cost, mtbi, restart : float
        C, M and R in minutes (M counts every unplanned interruption, recovered just in time or not).
    interval : float, optional
        T in minutes; the optimum (:func:`recovery_optimal_interval`) when omitted.
    just_in_time : float, optional
        p, the share of interruptions recovered without going back to a checkpoint, in [0, 1).
    jit_recovery : float, optional
        R_j, minutes a just-in-time recovery costs (the replayed step included).
    planned_rate : float, optional
        q, planned stops per hour, each costing a checkpoint and a restart but no lost work.

    Returns
    -------
    float
        Goodput, a fraction of 1 (:func:`recovery_losses`' exact goodput); with p = q = 0 the exact model's.

    Examples
    --------
    >>> from goodput.exact import exact_goodput
    >>> round(recovery_goodput(1.0, 185.6, 5.0), 6) == round(float(exact_goodput(1.0, 185.6, 5.0)), 6)
    True
    """
    return recovery_losses(checkpoint_cost, mtbi, restart, interval, just_in_time=just_in_time,
                           jit_recovery=jit_recovery, planned_rate=planned_rate).goodput


def recovery_optimal_interval(checkpoint_cost: float, mtbi: float, *, just_in_time: float = 0.0) -> float:
    """The optimum T with a share p recovered just in time: the exact model's with M / (1 - p) for M.

    Neither the just-in-time recovery's cost nor planned stops move it: they multiply the wall
    time per segment by a factor that does not depend on T.

    Examples
    --------
    >>> round(recovery_optimal_interval(1.0, 185.6, just_in_time=0.75), 1)
    37.9
    """
    return float(exact_optimal_interval(checkpoint_cost, Recovery(just_in_time).rollback_mtbi(mtbi)))


def first_order_recovery_interval(checkpoint_cost: float, mtbi: float, just_in_time: float = 0.0) -> float:
    """First order's optimum with a share p recovered just in time: √(2CM/(1 - p)), first order's at M'.

    Examples
    --------
    >>> round(first_order_recovery_interval(1.0, 185.6, 0.5), 2)
    27.25
    """
    return float(model.optimal_interval(checkpoint_cost, Recovery(just_in_time).rollback_mtbi(mtbi)))


#: The largest pool :func:`best_spares` tries by default (beyond it interruptions come so often that no pool keeps up).
MOST_SPARES = 1024


@dataclass(frozen=True)
class SparesChoice:
    """Goodput against the number of spare nodes, and the best count.

    Parameters
    ----------
    counts : list of int
        Spare counts tried, 0 upwards.
    restart : list of float
        The expected restart R(c) for each, minutes.
    goodput : list of float
        Goodput of the job at its optimum interval for each.
    useful : list of float
        The share of all GPUs bought (the job's and the spares') doing kept work, goodput x N / (N + c g).
    net : list of float
        Each count's kept work net of the spares, in GPUs: goodput x N - c g (the spares are GPUs that do not
        train; at the fleet's price this is, to a constant, what :attr:`dollars` counts against no spares).
    best : int
        The count with the largest :attr:`net` (so the dollars peak there too).
    dollars : list of float
        What each count's kept work is worth a month against no spares, net of the spares' own GPUs, in US
        dollars (empty unless a price is known: :meth:`goodput.fleet.FleetPlan.spares_choice` fills it).
    """

    counts: list[int]
    restart: list[float]
    goodput: list[float]
    useful: list[float]
    net: list[float]
    best: int
    dollars: list[float] = field(default_factory=list)


def best_spares(parts: float, checkpoint_cost: float, mtbi: float, repair: float, takes_node: float, gpus: int,
                gpus_per_node: int = 8, goodput_at: Callable[[float], float] | None = None) -> SparesChoice:
    """How many spare nodes maximize the kept work net of the spares' own GPUs, goodput x N - c g.

    Parameters
    ----------
    parts : float
        R_parts, the restart without waits for repairs, minutes.
    checkpoint_cost, mtbi : float
        C and M, minutes.
    repair : float
        r, mean minutes to repair a node.
    takes_node : float
        a, the share of interruptions that take a node out.
    gpus : int
        GPUs in the job.
    gpus_per_node : int, optional
        g (default 8).
    goodput_at : callable, optional
        Goodput at a restart of R minutes (default: the exact model of one tier at its optimum, with C
        and M); the fleet's plan passes its full scheme (:attr:`goodput.fleet.FleetPlan.best_spares`).

    Returns
    -------
    SparesChoice
        The counts tried and the best (the first of equals). The counts run from 0 at least until the wait
        is under a second per interruption and a quarter past the best, and on until no larger pool could
        beat the best (its net kept work is at most the goodput with no wait x N - c g), at most
        :data:`MOST_SPARES`.
    """
    from goodput.exact import exact_goodput

    n = validate.whole(gpus, "gpus")
    g = validate.whole(gpus_per_node, "gpus_per_node")
    top = 8  # shown at least: enough counts that the wait is under a second per interruption
    while spare_wait(top, mtbi, repair, takes_node) > 1.0 / 60.0 and top < MOST_SPARES:
        top = min(2 * top, MOST_SPARES)
    if goodput_at is None:
        def goodput_at(r: float) -> float:
            return float(exact_goodput(checkpoint_cost, mtbi, r))
    ceiling = goodput_at(parts)  # no pool does better than no wait at all
    counts: list[int] = []
    restart: list[float] = []
    goodput: list[float] = []
    useful: list[float] = []
    net: list[float] = []
    c, lead = 0, 0  # lead: the best count so far
    # Past `top`, go on while a larger pool could still beat the best so far (at c or more spares the kept work
    # net of the spares is at most ceiling x N - c g), and a quarter past the best so that a curve shows both sides.
    while c <= MOST_SPARES and (c <= top or c <= lead + max(2, lead // 4) or ceiling * n - c * g > net[lead]):
        counts.append(c)
        restart.append(parts + spare_wait(c, mtbi, repair, takes_node))
        goodput.append(goodput_at(restart[-1]))
        useful.append(goodput[-1] * n / (n + c * g))
        net.append(goodput[-1] * n - c * g)
        lead = c if net[c] > net[lead] else lead
        c += 1
    return SparesChoice(counts=counts, restart=restart, goodput=goodput, useful=useful, net=net, best=lead)


def recovery_losses(checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None, *,
                    just_in_time: float = 0.0, jit_recovery: float = 0.0, planned_rate: float = 0.0,
                    which: str = "exact") -> Losses:
    """The losses of one tier with a share p recovered just in time and planned stops, by either model.

    The one-tier model at M' = M / (1 - p) (:func:`goodput.exact.exact_losses` or
    :func:`goodput.model.losses`) with the pauses of :class:`Recovery`, a planned stop costing C + R.
    Exact: checkpoint overhead C/W, lost work (rolled-back work and checkpoints) (M'(e^{x'} - 1) - (T + C))/W,
    restart (the rollback restarts, the just-in-time recoveries and the planned stops) the rest, W the module
    docstring's wall time per segment, so that goodput is T/W. First order: C/T, (1 - p) T/(2M), and
    (1 - p) R/M + p R_j/M + q (C + R). With p = q = 0 both are the one-tier models' losses.

    Parameters
    ----------
    checkpoint_cost, mtbi, restart : float
        C, M and R in minutes.
    interval : float, optional
        T; the model's optimum when omitted (:func:`recovery_optimal_interval`, or
        :func:`first_order_recovery_interval`).
    just_in_time, jit_recovery, planned_rate : float, optional
        p, R_j (minutes) and q (per hour).
    which : {"exact", "first-order"}
        The model.

    Returns
    -------
    goodput.model.Losses
        The interval and the three losses.

    Examples
    --------
    >>> a, b = recovery_losses(1.0, 185.6, 5.0), exact_losses(1.0, 185.6, 5.0)
    >>> round(a.goodput, 9) == round(b.goodput, 9), round(a.lost_work, 9) == round(b.lost_work, 9)
    (True, True)
    """
    which = validate.choice(which, "model", ("exact", "first-order"))
    recovery = Recovery(just_in_time, jit_recovery, planned_rate)
    m = validate.positive(mtbi, "mtbi")
    rolled = recovery.rollback_mtbi(m)
    stop = Tiers(checkpoint_cost, restart).stop_cost
    if which == "first-order":
        return recovery.first_order(model.losses(checkpoint_cost, rolled, restart, interval), m, stop)
    return recovery.exact(exact_losses(checkpoint_cost, rolled, restart, interval), m, stop)
