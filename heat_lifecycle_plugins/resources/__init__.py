"""Resource types registered in the heat_lifecycle_plugins.resources group."""
