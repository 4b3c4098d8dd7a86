"""Lifecycle-aware OpenStack Heat resource plugins."""
