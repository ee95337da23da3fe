"""What a restart is made of, how many hot spares to hold, and recovery without going back to a checkpoint.

Durations in minutes. R is the sum of the restart's parts (:class:`RestartParts`).

**Hot spares.** Node-taking interruptions (share a) arrive at rate a/M; repairs take a
mean r (exponential); a pool of c spares. Nodes in repair form a birth-death process on
0..c+1 with a truncated Poisson law of mean ρ = a r / M, and an interruption finds the
pool empty with the Erlang loss probability B(c, ρ), then waits r / (c + 1). So

    R(c) = R_parts + a B(c, ρ) r / (c + 1),

with R(∞) = R_parts and R(0) = R_parts + a r. :func:`best_spares` maximizes the kept work
net of the spares, goodput(R(c)) x N - c g.

**Recovery without rollback** (Gupta et al., EuroSys 2024). A share p is recovered just in
time at cost R_j with no lost work; planned stops at rate q per hour cost S_q each, the scheme's durable checkpoint
and restart (a planned stop takes no node: its restart skips the wait for repairs in R, ``stop_saving``). The
scheme is evaluated at M' = M / (1 - p); the pauses π = p R_j / M + (q / 60) S_q strike
only while running (share u), so every loss L becomes L / (1 + u π), the restart loss
(L_R + u π) / (1 + u π). For one tier, u = e^{-R/M'} and the wall time per segment is

    (e^{x'} - 1) (M' e^{R/M'} + M' (p/M) R_j + M' q (C + R)),    M' = M / (1 - p),  x' = (T + C)/M',

so the optimum is the exact model's at M' and, to first order, T* = sqrt(2 C M / (1 - p)).
Failures during a recovery or a planned stop are left out (seconds to minutes, against M).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, TypeVar

from goodput import model, validate
from goodput.exact import exact_losses
from goodput.tiers import Tiers

if TYPE_CHECKING:
    from goodput.model import Losses
    from goodput.tiers import TierLosses

#: A scheme's losses: one tier's (:class:`goodput.model.Losses`) or a drain's and tiers' (:class:`goodput.tiers.TierLosses`).
AnyLosses = TypeVar("AnyLosses", "Losses", "TierLosses")


@dataclass(frozen=True)
class RestartParts:
    """A restart, part by part, in minutes.

    ``replace`` excludes waits for repairs (see :func:`spare_wait`); ``startup_per_node`` is
    multiplied by ``nodes``.
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
        return max(self.parts.items(), key=lambda part: part[1])[0]


@dataclass(frozen=True)
class Spares:
    """A pool of c hot spare nodes; ``repair`` r in mean minutes; ``takes_node`` a, the share of interruptions that take a node out."""

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

    p = ``just_in_time`` in [0, 1); R_j = ``jit_recovery`` minutes (the replayed step
    included); q = ``planned_rate`` per hour, each stop costing S_q, the scheme's
    (:attr:`goodput.tiers.Tiers.stop_cost`) less ``stop_saving`` (:attr:`goodput.params.Params.stop_saving`: a
    planned stop takes no node, so its restart does not wait for a repaired one).

    >>> x = Recovery(0.75, 0.5, 0.06)
    >>> x.rollback_mtbi(60.0), round(x.pauses(60.0, 6.0), 6), round(Recovery(0.75, 0.5, 0.06, 2.0).pauses(60.0, 6.0), 6)
    (240.0, 0.01225, 0.01025)
    """

    just_in_time: float = 0.0
    jit_recovery: float = 0.0
    planned_rate: float = 0.0
    stop_saving: float = 0.0

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
        """π = p R_j / M + (q / 60) S_q: minutes of pauses per minute of running time.

        S_q is the scheme's `stop_cost` less :attr:`stop_saving`. Refused (:func:`goodput.plan._check_scale`, the one
        decision) where R_j is as far out of scale against M as a restart may not be: a recovery of 999999 years was
        planned at "goodput 0.0%" where a restart as long is refused, and the model ignores interruptions during it.
        """
        if self.just_in_time > 0.0:
            from goodput.plan import _check_scale

            _check_scale(mtbi, self.jit_recovery)
        return self.just_in_time * self.jit_recovery / mtbi + self.planned_rate / 60.0 * (stop_cost - self.stop_saving)

    def exact(self, base: AnyLosses, mtbi: float, stop_cost: float) -> AnyLosses:
        """The scheme's exact losses at M' (`base`) with the pauses: each loss / (1 + u π), the restart's with u π.

        `base` is taken at :meth:`rollback_mtbi`; u = 1 - its restart loss. Returns `base`'s type.
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
                     just_in_time: float = 0.0, jit_recovery: float = 0.0, planned_rate: float = 0.0,
                     stop_saving: float = 0.0) -> float:
    """Goodput with a share of interruptions recovered just in time and planned stops with notice.

    C, M, R, T and R_j in minutes (M counts every unplanned interruption), q per hour; T
    defaults to the optimum, the exact model's at M / (1 - p) (R_j and planned stops scale the wall time by a
    factor independent of T). With p = q = 0, the exact model's goodput.

    >>> from goodput.exact import exact_goodput
    >>> round(recovery_goodput(1.0, 185.6, 5.0), 6) == round(float(exact_goodput(1.0, 185.6, 5.0)), 6)
    True
    """
    return recovery_losses(checkpoint_cost, mtbi, restart, interval, just_in_time=just_in_time,
                           jit_recovery=jit_recovery, planned_rate=planned_rate, stop_saving=stop_saving).goodput


#: The largest pool :func:`best_spares` tries by default (beyond it interruptions come so often that no pool keeps up).
MOST_SPARES = 1024


@dataclass(frozen=True)
class SparesChoice:
    """Goodput against the number of spare nodes, and the best count.

    ``useful`` is goodput x N / (N + c g); ``net`` is goodput x N - c g in GPUs and ``best``
    its argmax; ``dollars`` is each count's monthly worth against no spares, net of the
    spares' GPUs (empty unless :meth:`goodput.fleet.FleetPlan.spares_choice` knows a price).
    """

    counts: list[int]
    restart: list[float]
    goodput: list[float]
    useful: list[float]
    net: list[float]
    best: int
    dollars: list[float] = field(default_factory=list)


def spares_row(count: int, parts: float, mtbi: float, repair: float, takes_node: float, gpus: int, gpus_per_node: int,
               goodput_at: Callable[[float], float]) -> tuple[int, float, float, float, float]:
    """One pool's row of :class:`SparesChoice`: count, R(c) = `parts` + wait, goodput, useful and net (GPUs)."""
    r = parts + spare_wait(count, mtbi, repair, takes_node)
    kept = goodput_at(r)
    return count, r, kept, kept * gpus / (gpus + count * gpus_per_node), kept * gpus - count * gpus_per_node


def best_spares(parts: float, checkpoint_cost: float, mtbi: float, repair: float, takes_node: float, gpus: int,
                gpus_per_node: int = 8, goodput_at: Callable[[float], float] | None = None) -> SparesChoice:
    """How many spare nodes maximize the kept work net of the spares' own GPUs, goodput x N - c g.

    Minutes throughout; `parts` is R_parts, the restart without waits. `goodput_at` maps a
    restart to goodput (default: one tier's exact model at its optimum; the fleet's plan passes
    its full scheme). Counts run from 0 until the wait is under a second per interruption and
    a quarter past the best, and on until no larger pool could beat the best, at most
    :data:`MOST_SPARES`; ties go to the smaller count.
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
    rows: list[tuple[int, float, float, float, float]] = []  # count, restart, goodput, useful, net
    lead = 0  # the best count so far
    # Past `top`, go on while a larger pool could still beat the best so far (at c or more spares the kept work
    # net of the spares is at most ceiling x N - c g), and a quarter past the best so that a curve shows both sides.
    while (c := len(rows)) <= MOST_SPARES and (c <= top or c <= lead + max(2, lead // 4) or
                                               ceiling * n - c * g > rows[lead][4]):
        rows.append(spares_row(c, parts, mtbi, repair, takes_node, n, g, goodput_at))
        lead = c if rows[c][4] > rows[lead][4] else lead
    counts, restart, goodput, useful, net = (list(column) for column in zip(*rows, strict=True))
    return SparesChoice(counts=counts, restart=restart, goodput=goodput, useful=useful, net=net, best=lead)


def recovery_losses(checkpoint_cost: float, mtbi: float, restart: float, interval: float | None = None, *,
                    just_in_time: float = 0.0, jit_recovery: float = 0.0, planned_rate: float = 0.0,
                    stop_saving: float = 0.0, which: str = "exact") -> Losses:
    """The losses of one tier with a share p recovered just in time and planned stops, by either model.

    The one-tier model at M' = M / (1 - p) with the pauses of :class:`Recovery`, a planned stop
    costing C + R (less `stop_saving`, :class:`Recovery`). Exact: checkpoint C/W, lost work (M'(e^{x'} - 1) - (T + C))/W, restart the
    rest, W the module docstring's wall time per segment (goodput T/W). First order: C/T,
    (1 - p) T/(2M), and (1 - p) R/M + p R_j/M + q (C + R). With p = q = 0, the one-tier
    losses. T defaults to the model's optimum.

    >>> a, b = recovery_losses(1.0, 185.6, 5.0), exact_losses(1.0, 185.6, 5.0)
    >>> round(a.goodput, 9) == round(b.goodput, 9), round(a.lost_work, 9) == round(b.lost_work, 9)
    (True, True)
    """
    which = validate.choice(which, "model", ("exact", "first-order"))
    recovery = Recovery(just_in_time, jit_recovery, planned_rate, stop_saving)
    m = validate.positive(mtbi, "mtbi")
    rolled = recovery.rollback_mtbi(m)
    stop = Tiers(checkpoint_cost, restart).stop_cost
    if which == "first-order":
        return recovery.first_order(model.losses(checkpoint_cost, rolled, restart, interval), m, stop)
    return recovery.exact(exact_losses(checkpoint_cost, rolled, restart, interval), m, stop)
