"""The tournament hub (issue 17)."""
