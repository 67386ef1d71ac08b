"""`study serve`: the same Textual app in a browser tab, through textual-serve, behind a per-run token.

Imported only by the serve command, so aiohttp and textual-serve never load for the other commands."""
