"""Game plugins of the terminal frame: one module per game, plus the shared dice selection."""
