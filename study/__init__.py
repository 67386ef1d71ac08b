"""study: a terminal study tool for the NVIDIA NCA-AIIO exam."""

__version__ = "0.1.0"
