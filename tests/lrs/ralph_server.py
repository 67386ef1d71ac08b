"""Ralph's LRS API on one loopback port, with its filesystem backend, for the LRS tests and bench/lrs.py.

Ralph 5.1's filesystem backend is the only one that runs without a database server, and it has two bugs
that make it no LRS at all; both are mended here and nowhere else:

1. its data backend writes with ``operation_type=CREATE`` by default, which refuses to write to an existing
   file, while its LRS backend keeps every statement in one file (``fs_lrs.jsonl``): out of the box the
   second POST answers 500 ("already exists and overwrite is not allowed"). It now appends. Ralph's own
   duplicate and conflict checks (204 for an identical statement, 409 for a differing one) run before the
   write and are untouched.
2. the API hands the ``activity`` parameter over as a pydantic ``IRI`` object, which the filesystem filter
   compares with the statements' plain strings: ``GET /statements?activity=...`` matches nothing. The filter
   now gets the IRI's text.

The client under test speaks plain xAPI 1.0.3 and knows nothing of either.
"""

from __future__ import annotations

import sys

import uvicorn
from ralph.backends.data.base import BaseOperationType
from ralph.backends.data.fs import FSDataBackend
from ralph.backends.lrs.fs import FSLRSBackend

FSDataBackend.default_operation_type = BaseOperationType.APPEND
_filter_by_activity = FSLRSBackend._add_filter_by_activity


def _filter_by_activity_text(filters: list, object_id, related) -> None:
    _filter_by_activity(filters, None if object_id is None else str(object_id), related)


FSLRSBackend._add_filter_by_activity = staticmethod(_filter_by_activity_text)

if __name__ == "__main__":
    uvicorn.run("ralph.api:app", host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
