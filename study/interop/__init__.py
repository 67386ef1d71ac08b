"""Moving questions, cards and results to the tools people already use: Moodle (GIFT), Anki (.apkg) and
learning record stores (xAPI). Each format is one module exposing ``export_command(args) -> int``; the
GIFT module also exposes ``import_command(args) -> int``. Nothing here imports Textual."""
