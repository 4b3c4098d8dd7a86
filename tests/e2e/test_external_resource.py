"""OS::Mistral::ExternalResource through heat-api and a real Mistral.

An unmodified heat-engine (our loader in plugin_dirs) runs it: the
example's workflows create, change and delete a thing in a store the test
can look into.
"""

from tests.e2e.conftest import example

TEMPLATE = example('external_resource.yaml')


def physical_id(heat, stack_id):
    return heat.resources.get(stack_id, 'thing').physical_resource_id


def test_example_create_update_suspend_resume_delete(
        driver, heat, thing_store, mistral_workflows):
    params = {'store': thing_store.url, 'size': 2}
    stack_id = driver.create(TEMPLATE, params)
    outputs = driver.outputs(stack_id)
    thing_id = outputs['thing_id']
    assert thing_store.things()[thing_id] == {
        'id': thing_id, 'size': 2, 'color': 'red', 'state': 'active'}
    assert outputs['output'] == {'resource_id': thing_id, 'size': 2,
                                 'color': 'red'}
    assert physical_id(heat, stack_id) == thing_id

    driver.update(stack_id, TEMPLATE, dict(params, size=5))
    thing = thing_store.things()[thing_id]
    assert thing['size'] == 5 and thing['note'] == 'updated by heat'
    assert thing['previous_input'] == {'store': thing_store.url, 'size': 2,
                                       'color': 'red'}
    # The UPDATE workflow returned no resource_id: the id is stable.
    assert physical_id(heat, stack_id) == thing_id
    assert driver.outputs(stack_id)['size'] == 5

    driver.action(stack_id, 'SUSPEND')
    assert thing_store.things()[thing_id]['state'] == 'suspended'
    driver.action(stack_id, 'RESUME')
    assert thing_store.things()[thing_id]['state'] == 'active'
    assert physical_id(heat, stack_id) == thing_id

    events = [e for e in driver.events(stack_id)
              if e.resource_name == 'thing']
    assert [e.resource_status for e in events] == [
        'CREATE_IN_PROGRESS', 'CREATE_COMPLETE',
        'UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE',
        'SUSPEND_IN_PROGRESS', 'SUSPEND_COMPLETE',
        'RESUME_IN_PROGRESS', 'RESUME_COMPLETE']
    driver.delete(stack_id)
    assert thing_id not in thing_store.things()
    deletes = [entry for entry in thing_store.log()
               if entry[0] == 'DELETE']
    assert deletes == [['DELETE', '/things/%s' % thing_id, None]]
