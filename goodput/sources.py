"""Published figures the book cites, kept as data with their source.

Only facts read in the primary source are here; shares and rates are computed from them, never copied from printed
percentages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

# Llama Team, AI @ Meta, "The Llama 3 Herd of Models", arXiv:2407.21783 (2024), section 3.3.4 and Table 5.

#: Days in the pre-training snapshot the interruption counts cover.
LLAMA3_SNAPSHOT_DAYS = 54
#: All job interruptions in the snapshot.
LLAMA3_INTERRUPTIONS = 466
#: Planned interruptions (maintenance, configuration or dataset updates).
LLAMA3_PLANNED = 47
#: The paper's effective training time: "higher than 90%".
LLAMA3_EFFECTIVE_TRAINING_TIME = 0.90

#: Table 5 of the Llama 3 paper: unexpected interruptions by root cause, as (component, category, count).
LLAMA3_ROOT_CAUSES: tuple[tuple[str, str, int], ...] = (
    ("Faulty GPU", "GPU", 148),
    ("GPU HBM3 memory", "GPU", 72),
    ("Software bug", "Dependency", 54),
    ("Network switch/cable", "Network", 35),
    ("Host maintenance", "Unplanned maintenance", 32),
    ("GPU SRAM memory", "GPU", 19),
    ("GPU system processor", "GPU", 17),
    ("NIC", "Host", 7),
    ("NCCL watchdog timeouts", "Unknown", 7),
    ("Silent data corruption", "GPU", 6),
    ("GPU thermal interface + sensor", "GPU", 6),
    ("SSD", "Host", 3),
    ("Power supply", "Host", 3),
    ("Server chassis", "Host", 2),
    ("IO expansion board", "Host", 2),
    ("Dependency", "Dependency", 2),
    ("CPU", "Host", 2),
    ("System memory", "Host", 2),
)

#: Table 5's printed percentages, row for row with :data:`LLAMA3_ROOT_CAUSES`, kept only to show where
#: they disagree with the counts (the book computes every share from the counts). Read in a
#: reproduction of the table (G. Lockwood, "Component reliability", glennklockwood.com); the
#: 30.1% for faulty GPUs is also quoted in the press.
LLAMA3_PRINTED_SHARES: tuple[float, ...] = (
    0.301, 0.172, 0.129, 0.084, 0.076, 0.045, 0.041, 0.017, 0.017, 0.014, 0.014, 0.007, 0.007, 0.005, 0.005,
    0.005, 0.005, 0.005,
)


def llama3_root_causes() -> pd.DataFrame:
    """Table 5 of the Llama 3 paper, in its order, with shares (of all unexpected interruptions) from the counts."""
    import pandas as pd

    table = pd.DataFrame(LLAMA3_ROOT_CAUSES, columns=["component", "category", "count"])
    table["share"] = table["count"] / table["count"].sum()
    return table


def llama3_by_category() -> pd.DataFrame:
    """Llama 3 unexpected interruptions grouped by the paper's category, largest first."""
    table = llama3_root_causes().groupby("category")["count"].sum().reset_index()
    table["share"] = table["count"] / table["count"].sum()
    return table.sort_values(by="count", ascending=False, ignore_index=True)


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


def lost_share(loses: dict[str, bool] | None = None) -> float:
    """The share of Llama 3's unexpected interruptions that lose a node's local copy, from Table 5's counts."""
    loses = loses or {k: v for k, (v, _) in LOSES_LOCAL_COPY.items()}
    total = sum(n for _, _, n in LLAMA3_ROOT_CAUSES)
    return sum(n for component, _, n in LLAMA3_ROOT_CAUSES if loses[component]) / total


def lost_share_if(*, gpu_loses: bool = True, network_loses: bool = False) -> float:
    """:func:`lost_share` with the two judgment calls of :data:`LOSES_LOCAL_COPY` made otherwise.

    `gpu_loses` False: no GPU-category interruption loses the copy; `network_loses` True: a network interruption does.

    >>> lost_share_if() == lost_share() == llama3_count(loses_copy=True) / llama3_count()  # 321 of 419
    True
    >>> lost_share_if(gpu_loses=False) == (321 - 268) / 419, lost_share_if(network_loses=True) == (321 + 35) / 419
    (True, True)
    """
    loses = {k: v for k, (v, _) in LOSES_LOCAL_COPY.items()}
    if not gpu_loses:
        loses |= {c: False for c, category, _ in LLAMA3_ROOT_CAUSES if category == "GPU"}
    if network_loses:
        loses["Network switch/cable"] = True
    return lost_share(loses)


def llama3_count(*, category: str | None = None, component: str | None = None, loses_copy: bool | None = None) -> int:
    """Table 5's unexpected interruptions: all, or those of one category, of one component, or that lose the local copy.

    >>> llama3_count(), llama3_count(category="GPU"), llama3_count(loses_copy=True)
    (419, 268, 321)
    """
    return sum(n for c, cat, n in LLAMA3_ROOT_CAUSES
               if category in (None, cat) and component in (None, c)
               and (loses_copy is None or LOSES_LOCAL_COPY[c][0] == loses_copy))



# Restart and spares figures (the chapter "What a restart is made of").

#: ALCF Aurora, ``deepspeed.initialize`` (Megatron-DeepSpeed notes): (world size, seconds), 12 ranks a node.
AURORA: tuple[tuple[int, float], ...] = (
    (96, 61.073), (192, 107.74411), (192, 107.201338), (192, 107.10853), (384, 200.23095), (384, 206.49485),
    (384, 200.49485), (768, 413.55765), (768, 394.92617), (768, 414.725), (768, 387.987), (768, 411.72035),
    (768, 394.926), (768, 409.375), (768, 393.091), (768, 412.600), (1536, 789.30077), (1536, 788.86531),
    (1536, 792.71864), (1536, 836.98), (1536, 801.205), (1536, 836.98), (1536, 820.9538), (1536, 707.048),
    (3072, 1639.62374), (3072, 1591.345), (3072, 1632.12712), (3072, 1674.444), (3072, 1618.100),
)
AURORA_RANKS_PER_NODE = 12
#: MegaScale (NSDI 2024): NCCL initialization at 2,048 GPUs before and after its optimizations, seconds
#: (the second an upper bound: "under 5 s"), at 8 GPUs a node.
MEGASCALE_GPUS, MEGASCALE_BEFORE, MEGASCALE_AFTER, MEGASCALE_GPUS_PER_NODE = 2048, 1047.0, 5.0, 8
#: NCSA Delta: the spare capacity its study projects as needed, a share of the nodes.
DELTA_SPARE_SHARE = 0.05
#: BLOOM-176B: nodes in the job and spare nodes kept beside them.
BLOOM_NODES, BLOOM_SPARES = 48, 4


def aurora_fit() -> tuple[float, float]:
    """Aurora's start-up fitted by least squares as fixed + per node x nodes: (fixed, per node), seconds."""
    import numpy as np

    nodes = np.array([w / AURORA_RANKS_PER_NODE for w, _ in AURORA])
    seconds = np.array([s for _, s in AURORA])
    per_node, fixed = np.polyfit(nodes, seconds, 1)
    return float(fixed), float(per_node)


def aurora_by_nodes() -> dict[int, float]:
    """Aurora's mean start-up at each job size: {nodes: mean seconds}, smallest first.

    >>> means = aurora_by_nodes()
    >>> min(means), round(means[min(means)], 3), max(means)
    (8, 61.073, 256)
    """
    import numpy as np

    by_nodes: dict[int, list[float]] = {}
    for world, seconds in AURORA:
        by_nodes.setdefault(world // AURORA_RANKS_PER_NODE, []).append(seconds)
    return {n: float(np.mean(s)) for n, s in sorted(by_nodes.items())}


# Checkpoint sizes and bandwidths (the chapter "From your model and your storage to C and R").

#: BLOOM-176B (BigScience, training chronicles): its parameter count.
BLOOM_PARAMETERS = 176.25e9
#: Its bf16 weights as published ("329GB"), read as binary gigabytes (GiB).
BLOOM_WEIGHTS_PUBLISHED = 329.0
#: Its full checkpoint with optimizer states as published ("2.3TB"; the unit is not said to be binary or decimal).
BLOOM_CHECKPOINT_PUBLISHED = 2.3
#: GEMINI (Wang et al., SOSP 2023): MT-NLG's parameters, bytes per parameter of its model states, the network
#: bandwidth, and the minutes reported to checkpoint them.
GEMINI_PARAMETERS, GEMINI_BYTES, GEMINI_BANDWIDTH, GEMINI_MINUTES = 530e9, 12.0, "20 Gb/s", 42.0
#: Lablup's 504-GPU B200 cluster (63 nodes, 2026): nominal storage write and read bandwidths and the shares of
#: them that checkpoint saves and restores reached.
LABLUP_WRITE, LABLUP_WRITE_SHARE, LABLUP_READ, LABLUP_READ_SHARE = "250 GB/s", 0.160, "700 GB/s", 0.215
#: A Megatron-LM save of a 744B model (radixark/Megatron-LM#61): parameters, bytes per parameter (fp32 master
#: weights, Adam moments and bf16 weights), nodes, and the staging and free host memory per node reported, GB.
STAGING_PARAMETERS, STAGING_BYTES, STAGING_NODES = 744e9, 14.0, 16
STAGING_PUBLISHED, STAGING_FREE = 650e9, 780e9
#: User reports: torchtitan#1301 (Llama 3 8B, its logged parameter count, about 6 minutes to save) and
#: Megatron-LLM#69 (a 70B checkpoint, about 10 minutes to write).
TITAN_PARAMETERS, TITAN_MINUTES = 8_030_261_248, 6.0
MEGATRON_PARAMETERS, MEGATRON_MINUTES = 70e9, 10.0
#: Bytes per parameter the user reports are read at: without and with the bf16 copy.
REPORT_BYTES = (12.0, 14.0)
#: PyTorch's asynchronous distributed checkpoint (PyTorch blog, 2024): a 7B model's checkpoint downtime, the stall
#: the training loop saw (barrier, quiesce and copy), in seconds, before and after.
ASYNC_DCP_SYNC_SECONDS, ASYNC_DCP_STALL_SECONDS = 148.8, 6.3
