"""One module per screen; imported on first use to keep start-up cheap."""
