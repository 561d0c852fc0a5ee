"""The community data API (submissions, review, history)."""
