"""`stack check` of a stack with an ExternalResource, on every Heat series.

Through convergence from Heat 26.0, the legacy check before: no workflow
runs, the thing and the outputs stay, and the stack still updates.
"""

from tests.functional.external_resource.conftest import EXAMPLE_TEMPLATE

with open(EXAMPLE_TEMPLATE) as f:
    EXAMPLE = f.read()


def test_check_completes_without_running_a_workflow(heat, mistral,
                                                    thing_store):
    ident = heat.create(EXAMPLE, params={'store': thing_store.url,
                                         'size': 2})
    outputs = heat.outputs(ident)
    executions = len(mistral.client().executions.list(limit=-1))

    heat.check(ident)
    thing = heat.resource(ident, 'thing', with_attr=False)
    assert (thing['resource_action'], thing['resource_status']) == (
        'CHECK', 'COMPLETE')
    assert len(mistral.client().executions.list(limit=-1)) == executions
    assert heat.outputs(ident) == outputs
    assert thing_store.things()[outputs['thing_id']]['size'] == 2

    heat.update(ident, EXAMPLE, params={'store': thing_store.url,
                                        'size': 3})
    assert thing_store.things()[outputs['thing_id']]['size'] == 3
    heat.delete(ident)
    assert outputs['thing_id'] not in thing_store.things()
