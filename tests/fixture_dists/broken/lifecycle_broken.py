"""A plugin module that cannot be imported, as after a bad deployment."""

import heat_lifecycle_plugins_missing_dependency  # noqa: F401


class Broken(object):
    pass
