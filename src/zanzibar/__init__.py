"""Zanzibar: an accessible online game salon for 421, Zilch 5000 and Zanzibar-S."""

__version__ = "0.1.0"
