"""Committed data of the rules engine: the auto-arrange win table and the script that builds it."""
