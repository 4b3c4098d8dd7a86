"""`stack check` of a stack with a component and a deployment.

On every Heat series: from 26.0 Heat checks a convergence stack through
convergence; earlier releases run the legacy check.
"""

from tests.functional.software_component import helpers


def states(engine, ident):
    return {r['resource_name']: (r['resource_action'], r['resource_status'])
            for r in engine.resources(ident)}


def test_check_completes_and_the_stack_still_updates(engine):
    template = helpers.component_stack(
        [helpers.script(['CREATE', 'UPDATE'])], outputs=[{'name': 'result'}],
        input_values={'x': 1})
    template['outputs'] = {
        'result': {'value': {'get_attr': ['deployment', 'result']}}}
    ident = engine.create(template, wait=False)
    helpers.wait_for_delivery(engine, ident, 'CREATE')
    engine.signal(ident, 'deployment', helpers.final_signal(result='one'))
    engine.wait(ident, 'CREATE')

    engine.check(ident)
    assert states(engine, ident) == {
        name: ('CHECK', 'COMPLETE')
        for name in ('server', 'component', 'deployment')}
    assert helpers.software_deployment(engine, ident)['status'] == 'COMPLETE'
    assert engine.outputs(ident)['result'] == 'one'

    # The checked stack takes the next action as before.
    template['resources']['deployment']['properties']['input_values'] = {
        'x': 2}
    engine.update(ident, template, wait=False)
    helpers.wait_for_delivery(engine, ident, 'UPDATE')
    engine.signal(ident, 'deployment', helpers.final_signal(result='two'))
    engine.wait(ident, 'UPDATE')
    assert engine.outputs(ident)['result'] == 'two'
    engine.delete(ident)
