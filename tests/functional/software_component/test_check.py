# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.
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
