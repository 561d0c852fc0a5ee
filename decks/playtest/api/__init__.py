"""The playtest API."""
