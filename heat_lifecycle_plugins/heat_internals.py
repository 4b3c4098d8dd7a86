"""The one place the package touches Heat beyond its plugin API.

Heat's plugin API (Resource, properties, attributes, constraints, support,
StackResource, the client plugins) is stable across releases; everything
else used here (DB API and models, objects, engine internals, private
methods of in-tree classes we extend) is named in this module, with the
per-release differences handled here. tests/unit/test_heat_internals.py
checks on the installed Heat that each name exists with the expected
signature.
"""

import importlib.metadata

# The first Heat release whose heat-engine runs on native threads
# (oslo.service's threading backend); earlier ones run on eventlet.
THREADS_FROM = (25, 0)


def heat_version():
    """The installed openstack-heat version as a tuple of ints."""
    text = importlib.metadata.version('openstack-heat')
    return tuple(int(p) for p in text.split('.')[:3] if p.isdigit())


def engine_uses_eventlet():
    return heat_version() < THREADS_FROM


def select_engine_runtime():
    """Select the concurrency model heat-engine of this release uses.

    For a process that runs Heat's engine in-process (tests, benchmarks):
    heat-engine monkey-patches eventlet (up to 24.x) or selects
    oslo.service's threading backend (25.0 on) before importing the rest
    of Heat.
    """
    if engine_uses_eventlet():
        import eventlet
        eventlet.monkey_patch()
    else:
        from oslo_service import backend
        backend.init_backend(backend.BackendType.THREADING)
