"""The Xid codes a lab may raise, with NVIDIA's catalogue description and first resolution.

Source: NVIDIA Xid Catalog, https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html, as copied
in ``reference/tool_outputs/xid_catalog_subset.txt`` (generated 2025-10-29). Only these codes pass lint: a
scenario inventing an Xid is an error, not a lesson. Extend the table from the catalogue, citing it.
"""

from __future__ import annotations

# code: (mnemonic, description, immediate resolution)
XIDS: dict[int, tuple[str, str, str]] = {
    13: ("ROBUST_CHANNEL_GR_EXCEPTION", "Graphics Engine Exception", "RESTART_APP"),
    31: ("ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT", "GPU memory page fault", "RESTART_APP"),
    43: ("ROBUST_CHANNEL_RESETCHANNEL_VERIF_ERROR", "GPU stopped processing", "IGNORE"),
    45: ("ROBUST_CHANNEL_PREEMPTIVE_REMOVAL", "Preemptive cleanup, due to previous errors", "WORKFLOW_XID_45"),
    48: ("ROBUST_CHANNEL_GPU_ECC_DBE", "Double Bit ECC Error", "WORKFLOW_XID_48"),
    61: ("PMU_BREAKPOINT", "Unused", "CONTACT_SUPPORT"),
    62: ("PMU_HALT_ERROR", "Internal micro-controller halt", "RESET_GPU"),
    63: ("INFOROM_DRAM_RETIREMENT_EVENT", "GPU memory remapping event", "IGNORE"),
    64: ("INFOROM_DRAM_RETIREMENT_FAILURE", "GPU memory remapping failure", "RESET_GPU"),
    74: ("NVLINK_ERROR", "NVLINK Error", "WORKFLOW_NVLINK_ERR"),
    79: ("ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS", "GPU has fallen off the bus", "RESTART_BM"),
    92: ("EXCESSIVE_SBE_INTERRUPTS", "High single-bit ECC error rate", "IGNORE"),
    94: ("ROBUST_CHANNEL_CONTAINED_ERROR", "Contained memory error", "RESTART_APP"),
    95: ("ROBUST_CHANNEL_UNCONTAINED_ERROR", "Uncontained memory error", "RESET_GPU"),
    119: ("GSP_RPC_TIMEOUT", "GSP RPC Timeout", "RESET_GPU"),
    120: ("GSP_ERROR", "GSP Error", "RESET_GPU"),
    154: ("GPU_RECOVERY_ACTION_CHANGED", "GPU Recovery Action Changed", "XID_154"),
}
